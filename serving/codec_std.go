//go:build stdjson

package serving

import (
	"bytes"
	"encoding/json"
	"errors"
)

var errTrailing = errors.New("data after the JSON object")

// fastDecode is encoding/json in the stdjson build.
func fastDecode(body []byte, v any, disallowUnknown bool) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if disallowUnknown {
		dec.DisallowUnknownFields()
	}
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errTrailing
	}
	return nil
}

func encode(v any) ([]byte, error) { return json.Marshal(v) }
