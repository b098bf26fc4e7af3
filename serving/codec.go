//go:build !stdjson

package serving

import (
	"unsafe"

	"github.com/bytedance/sonic"
)

// The request decoder: sonic, several times faster than encoding/json on
// the large bodies of a batch; a body it refuses is decoded again with
// encoding/json for a message that names the field (decodeBody).
var (
	lenient = sonic.Config{UseNumber: true, ValidateString: true, NoValidateJSONMarshaler: true}.Froze()
	strict  = sonic.Config{UseNumber: true, ValidateString: true, NoValidateJSONMarshaler: true, DisallowUnknownFields: true}.Froze()
)

// fastDecode decodes body (numbers in interfaces as json.Number), which the server owns and never changes or
// reuses, into v. sonic reads it as a string without copying it, and the strings it decodes may alias it.
func fastDecode(body []byte, v any, disallowUnknown bool) error {
	text := unsafe.String(unsafe.SliceData(body), len(body))
	if disallowUnknown {
		return strict.UnmarshalFromString(text, v)
	}
	return lenient.UnmarshalFromString(text, v)
}

// encoder sorts map keys, as encoding/json does, so answers are stable.
var encoder = sonic.Config{SortMapKeys: true, NoValidateJSONMarshaler: true}.Froze()

func encode(v any) ([]byte, error) { return encoder.Marshal(v) }
