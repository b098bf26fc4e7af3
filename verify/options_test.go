package verify

import (
	"reflect"
	"strings"
	"testing"
)

func TestDecodeOptionsDefaults(t *testing.T) {
	b, err := DecodeOptions(nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(b.Gold, DefaultExtractConfig) || !reflect.DeepEqual(b.Pred, DefaultExtractConfig) ||
		b.Compare != DefaultOptions || b.Reasons {
		t.Errorf("defaults %+v; want math-verify's", b)
	}
}

func TestDecodeOptions(t *testing.T) {
	b, err := DecodeOptions(map[string]any{
		"float_rounding": int64(2), "numeric_precision": int64(5), "strict": false, "allow_set_relation_comp": true,
		"reasons": true,
		"pred_extraction": map[string]any{"targets": []any{
			map[string]any{"kind": "string", "strings": []any{"A", "B"}, "lowercase": false},
			map[string]any{"kind": "latex", "boxed_match_priority": int64(0),
				"normalization_config": map[string]any{"boxed": "last", "units": true}},
		}, "fallback_mode": "no_fallback", "extraction_mode": "first_match"},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := Options{FloatRounding: 2, NumericPrecision: 5, NonStrict: true, AllowSetRelation: true}
	if b.Compare != want || !b.Reasons {
		t.Errorf("comparison %+v reasons %v; want %+v and reasons", b.Compare, b.Reasons, want)
	}
	p := b.Pred
	if p.FirstMatchFallback || !p.FirstMatchOnly || len(p.Targets) != 2 {
		t.Fatalf("pred extraction %+v", p)
	}
	if s := p.Targets[0]; s.Kind != TargetString || !reflect.DeepEqual(s.Strings, []string{"A", "B"}) || s.Lowercase {
		t.Errorf("string target %+v", s)
	}
	if l := p.Targets[1]; l.Kind != TargetLatex || l.BoxedPriority != 0 ||
		l.Norm != (NormConfig{BasicLatex: true, Units: true, Boxed: "last"}) {
		t.Errorf("latex target %+v", l)
	}
}

func TestDecodeOptionsErrors(t *testing.T) {
	for _, c := range []struct {
		raw  map[string]any
		want string
	}{
		{map[string]any{"float_rounding": int64(101)}, "float_rounding must be between 0 and 100"},
		{map[string]any{"x": int64(1)}, "x"},
		{map[string]any{"gold_extraction": []any{}}, "gold_extraction must be a mapping"},
		{map[string]any{"pred_extraction": map[string]any{"targets": []any{int64(1)}}}, "targets[0] must be a mapping"},
		{map[string]any{"pred_extraction": map[string]any{"targets": []any{map[string]any{"kind": "nope"}}}}, "nope"},
		{map[string]any{"pred_extraction": map[string]any{"fallback_mode": "x"}}, "fallback_mode"},
		{map[string]any{"gold_extraction": map[string]any{"targets": []any{map[string]any{"kind": "latex",
			"normalization_config": map[string]any{"boxed": "some"}}}}}, "boxed must be"},
	} {
		if _, err := DecodeOptions(c.raw); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("DecodeOptions(%v) = %v; want an error naming %q", c.raw, err, c.want)
		}
	}
}
