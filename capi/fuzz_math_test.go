package main

import (
	"strings"
	"testing"
	"unsafe"

	"github.com/llenvs/llenvs-go/verify"
)

// textsView lays strs out as a column of the caller's memory (one buffer
// and len(strs)+1 offsets), as llenvs_math_* read them.
func textsView(strs ...string) textColumnView {
	buf := []byte{0} // never empty, so the view has an address
	offs := []int64{0}
	for _, s := range strs {
		buf = append(buf[:offs[len(offs)-1]], s...)
		offs = append(offs, int64(len(buf)))
	}
	buf = append(buf, 0)
	return textColumnView{unsafe.Pointer(&buf[0]), offs}
}

// FuzzMathRequests decodes arbitrary llenvs_math_parse configurations and
// llenvs_math_verify_batch options, then parses and compares arbitrary
// answers with them: a request is decoded or refused with a reported
// error; parsing and comparing end with a value or an error, never a panic
// (verifyItem would report one as an internal error), and a parsed answer
// encodes.
func FuzzMathRequests(f *testing.F) {
	for _, o := range []string{
		`{}`, `{"float_rounding": 2, "numeric_precision": 5, "strict": false, "allow_set_relation_comp": true, "reasons": true}`,
		`{"gold_extraction": {"targets": [{"kind": "latex", "boxed_match_priority": 0, "normalization_config": {"boxed": "last", "units": true}}]}}`,
		`{"pred_extraction": {"targets": [{"kind": "expr"}, {"kind": "string", "strings": ["A", "B"], "lowercase": true}], "fallback_mode": "no_fallback", "extraction_mode": "first_match"}}`,
		`{"float_rounding": 101}`, `{"numeric_precision": 1000000}`, `{"numeric_precision": -5}`, `{"gold_extraction": []}`,
		`{"pred_extraction": {"targets": [{"kind": "nope"}]}}`, `{"pred_extraction": {"targets": [1]}}`, `{"x": 1}`,
	} {
		f.Add(o, `\boxed{\frac{1}{2}}`, "The answer is $0.5$.")
		f.Add(o, "#### 1,200", `\boxed{1200}`)
	}
	f.Add(`{}`, `\boxed{x^{2}+2x+1}`, `$(x+1)^2$`)
	f.Add(`{}`, `\boxed{[1, 2)}`, `$\{1, 2\}$`)
	f.Add(`{}`, `\boxed{10^{10^{10}}}`, `$9^{9^{9}}$`)
	f.Add(`{"numeric_precision": 100000}`, `\boxed{\sqrt{2}}`, `$1.4142135623730951$`)
	f.Fuzz(func(t *testing.T, opts, gold, pred string) {
		o, err := decodeMathOptions([]byte(opts))
		if err != nil {
			checkReported(t, err)
			return
		}
		items := mathItems{strs: textsView(gold, pred)}
		for i := range 2 {
			vals, err := items.values(i, o.Pred, o.Compare.Budget)
			if err != nil {
				checkReported(t, err)
				notPanic(t, err) // verify reports a recovered panic as an internal error
				continue
			}
			for _, v := range vals {
				if _, err := verify.Encode(v); err != nil {
					checkReported(t, err)
				}
			}
		}
		golds, preds := mathItems{strs: textsView(gold)}, mathItems{strs: textsView(pred)}
		ok, reason := verifyItem(golds, preds, 0, o)
		if strings.Contains(reason, "internal error") {
			t.Fatalf("verify(%q, %q) = %v: %s", gold, pred, ok, reason)
		}
	})
}

// FuzzMathParseBatch parses arbitrary texts into the record batch of
// llenvs_math_parse and reads every row back: each parsed value's
// encoding, display and kind in order, an error row null-free only where
// the parse failed, and every encoding decoding to a value that encodes
// the same.
func FuzzMathParseBatch(f *testing.F) {
	f.Add(`\boxed{\frac{1}{2}}`, "The answer is $0.5$ or B.", "")
	f.Add("#### 1,200", `\boxed{\{1, 2\}} and $x = 3$`, "\xed\xa0\x80")
	f.Add(`\boxed{10^{10^{10^{10}}}}`, strings.Repeat("(", 5000), "no answer here")
	f.Fuzz(func(t *testing.T, a, b, c string) {
		texts := []string{a, b, "", c}
		parsed := make([]mathParsed, len(texts))
		for i, s := range texts {
			var err error
			if parsed[i], err = parseText(s, verify.DefaultExtractConfig); err != nil {
				checkReported(t, err)
				return
			}
		}
		batch, err := parseBatch(parsed)
		if err != nil {
			t.Fatalf("parseBatch: %v", err)
		}
		defer batch.free()
		if batch.length != 4 || len(batch.children) != 2 || batch.children[0].name != "values" ||
			batch.children[1].name != "error" {
			t.Fatalf("%d rows, %d columns; want 4 rows of values and error", batch.length, len(batch.children))
		}
		values, errCol := batch.children[0], batch.children[1]
		offs := unsafe.Slice((*int32)(values.buffers[1]), 5)
		item := values.children[0]
		enc, disp, kind := item.children[0], item.children[1], item.children[2]
		nulls := int64(0)
		for i, p := range parsed {
			got := utf8At(errCol, i)
			if (got == nil) != (p.err == nil) || got != nil && *got != p.err.Error() {
				t.Fatalf("row %d error %v, want %v", i, got, p.err)
			}
			if got == nil {
				nulls++
			}
			if int(offs[i+1]-offs[i]) != len(p.vals) {
				t.Fatalf("row %d has %d values, want %d", i, offs[i+1]-offs[i], len(p.vals))
			}
			for j, v := range p.vals {
				r := int(offs[i]) + j
				e := *utf8At(enc, r)
				if e != p.encs[j] || *utf8At(disp, r) != v.String() || *utf8At(kind, r) != v.Kind.String() {
					t.Fatalf("row %d value %d: %q %q %q, want %q %q %q", i, j, e, *utf8At(disp, r), *utf8At(kind, r),
						p.encs[j], v.String(), v.Kind.String())
				}
				back, err := verify.Decode(e, verify.DefaultBudget)
				if err != nil {
					t.Fatalf("row %d value %d: encoding %q does not decode: %v", i, j, e, err)
				}
				if again, err := verify.Encode(back); err != nil || again != e {
					t.Fatalf("row %d value %d: encoding %q reads back as %q (%v)", i, j, e, again, err)
				}
			}
		}
		if errCol.nulls != nulls {
			t.Fatalf("error null count %d, want %d", errCol.nulls, nulls)
		}
	})
}

// FuzzMathItems reads arbitrary strings as the items of a side of
// llenvs_math_verify_batch: texts are parsed, a values item decodes each
// of its strings (an encoding or a reported error), the item layout and
// kinds are accepted exactly when valid, and a values item built from a
// text's parse compares as the text does.
func FuzzMathItems(f *testing.F) {
	f.Add(`\boxed{\frac{1}{2}}`, "0.5", uint8(0), uint8(1))
	f.Add("T", "E1/2", uint8(1), uint8(1))
	f.Add("", "x", uint8(2), uint8(0))
	f.Fuzz(func(t *testing.T, a, b string, k0, k1 uint8) {
		strs := textsView(a, b, a)
		m := mathItems{kinds: []uint8{k0, k1}, items: []int64{0, 1, 3}, strs: strs}
		err := m.check(2, "gold")
		wantErr := k0 > mathItemValues || k1 > mathItemValues || k1 == mathItemText
		if (err != nil) != wantErr {
			t.Fatalf("kinds %d %d over 1 and 2 strings: check %v", k0, k1, err)
		}
		if err != nil {
			checkReported(t, err)
			return
		}
		for i := range 2 {
			if _, err := m.values(i, verify.DefaultExtractConfig, verify.DefaultBudget); err != nil {
				checkReported(t, err)
				notPanic(t, err)
			}
		}
		// a's parse, sent back as values, verifies as a itself does.
		p, err := parseText(a, verify.DefaultExtractConfig)
		if err != nil || p.err != nil {
			return
		}
		o, _ := verify.DecodeOptions(nil)
		asText := mathItems{strs: textsView(a)}
		asValues := mathItems{kinds: []uint8{mathItemValues}, items: []int64{0, int64(len(p.encs))},
			strs: textsView(p.encs...)}
		pred := mathItems{strs: textsView(b)}
		ok1, r1 := verifyItem(asText, pred, 0, o)
		ok2, r2 := verifyItem(asValues, pred, 0, o)
		if ok1 != ok2 || strings.HasPrefix(r2, "gold:") && !strings.HasPrefix(r1, "gold:") {
			t.Fatalf("gold %q as text: %v (%s); as its values: %v (%s)", a, ok1, r1, ok2, r2)
		}
	})
}
