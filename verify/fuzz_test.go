package verify

import (
	"testing"
	"time"
)

// FuzzParse checks that no text makes Parse, Encode/Decode or Equal panic,
// hang or disagree with itself: every parsed value round-trips through its
// encoding and equals itself.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`\boxed{\frac{1}{2}}`, `$x^2+2x+1$`, `The final answer is $17$. I hope it is correct.`, `\boxed{(1,2]}`,
		`\boxed{9^{9^{9^{9}}}}`, `\boxed{\{1,2\} \cup [3,4)}`, `Answer: 1,234.5`, `$1$ and $2$`, `\boxed{2 \pm \sqrt{3}}`,
		`\boxed{x \in [1,2]}`, `\boxed{\sqrt[3]{x}\sin x}`, `\boxed{|x| + \lfloor 2.5 \rfloor}`, `50%`, `\boxed{`,
		`$$\frac{a}{b}$$`, `\[ \boxed{1 < x \le 2} \]`, `\boxed{10!}`, `\boxed{\text{five apples}}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		start := time.Now()
		vals, err := Parse(text, DefaultExtractConfig)
		if err != nil && !IsBudgetError(err) {
			t.Fatalf("Parse(%q): unexpected error %v", text, err)
		}
		for _, v := range vals {
			enc, err := Encode(v)
			if err != nil {
				t.Fatalf("Encode(%v) from %q: %v", v, text, err)
			}
			back, err := Decode(enc, Budget{})
			if err != nil {
				t.Fatalf("Decode(%q) from %q: %v", enc, text, err)
			}
			if back.String() != v.String() {
				t.Fatalf("%q: decoded %q, parsed %q", text, back.String(), v.String())
			}
			if eq, err := EqualValues(v, v, DefaultOptions); !eq && err == nil && v.Kind != KindText {
				t.Fatalf("%q: %v does not equal itself", text, v)
			}
		}
		if elapsed := time.Since(start); elapsed > 2*time.Second {
			t.Fatalf("%q took %v", text, elapsed)
		}
	})
}
