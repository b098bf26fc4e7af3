//go:build stdjson

package main

import (
	"bytes"
	"encoding/json"
)

// codecName says which JSON implementation the library was built with.
const codecName = "encoding/json"

func marshal(v any) ([]byte, error) { return json.Marshal(v) }

// unmarshal decodes data with integers as int64, like the sonic build.
func unmarshal(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if p, ok := v.(*any); ok {
		*p = fixNumbers(*p)
	}
	if p, ok := v.(*map[string]any); ok {
		for k, x := range *p {
			(*p)[k] = fixNumbers(x)
		}
	}
	return nil
}

func fixNumbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return i
		}
		f, _ := x.Float64()
		return f
	case []any:
		for i := range x {
			x[i] = fixNumbers(x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = fixNumbers(x[k])
		}
	}
	return v
}
