//go:build !stdjson

package serving

import "github.com/bytedance/sonic"

// The request decoder: sonic, several times faster than encoding/json on
// the large bodies of a batch; a body it refuses is decoded again with
// encoding/json for a message that names the field (decodeBody).
var (
	lenient = sonic.Config{UseNumber: true, ValidateString: true, NoValidateJSONMarshaler: true}.Froze()
	strict  = sonic.Config{UseNumber: true, ValidateString: true, NoValidateJSONMarshaler: true, DisallowUnknownFields: true}.Froze()
)

// fastDecode decodes body (numbers in interfaces as json.Number), which the server owns and never reuses (sonic's
// strings alias it), into v.
func fastDecode(body []byte, v any, disallowUnknown bool) error {
	if disallowUnknown {
		return strict.Unmarshal(body, v)
	}
	return lenient.Unmarshal(body, v)
}

// encoder sorts map keys, as encoding/json does, so answers are stable.
var encoder = sonic.Config{SortMapKeys: true, NoValidateJSONMarshaler: true}.Froze()

func encode(v any) ([]byte, error) { return encoder.Marshal(v) }
