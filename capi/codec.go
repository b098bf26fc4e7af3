//go:build !stdjson

package main

import "github.com/bytedance/sonic"

// codecName says which JSON implementation the library was built with.
const codecName = "sonic"

// jsonAPI decodes numbers that are integers as int64 (seeds and sizes must
// not lose precision) and replaces invalid UTF-8 in strings, as
// encoding/json does.
var jsonAPI = sonic.Config{UseInt64: true, ValidateString: true, NoValidateJSONMarshaler: true, SortMapKeys: true}.Froze()

func marshal(v any) ([]byte, error) { return jsonAPI.Marshal(v) }

// unmarshal decodes data, which must be Go-owned: sonic's strings alias
// their input.
func unmarshal(data []byte, v any) error { return jsonAPI.Unmarshal(data, v) }
