package main

// errorReply is the error buffer of llenvs.h: a JSON object with the
// message and the kind of error, and, for an unknown key or name, the key,
// the nearest valid one and the valid ones.
type errorReply struct {
	Message    string
	Kind       string
	Key        string
	Suggestion string
	Valid      []string // nil: unknown; empty: none are valid
}

// encode renders e as JSON, leaving out the fields that are not known.
// It is written by hand so that an error can always be reported, whatever
// the JSON codec thinks of its contents.
func (e errorReply) encode() []byte {
	b := make([]byte, 0, len(e.Message)+64)
	b = append(b, `{"message":`...)
	b = appendJSONString(b, e.Message)
	b = append(b, `,"kind":`...)
	b = appendJSONString(b, e.Kind)
	if e.Key != "" || e.Valid != nil {
		b = append(b, `,"key":`...)
		b = appendJSONString(b, e.Key)
	}
	if e.Suggestion != "" {
		b = append(b, `,"suggestion":`...)
		b = appendJSONString(b, e.Suggestion)
	}
	if e.Valid != nil {
		b = append(b, `,"valid":[`...)
		for i, v := range e.Valid {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, v)
		}
		b = append(b, ']')
	}
	return append(b, '}')
}
