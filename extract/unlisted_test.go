package extract

import (
	"errors"
	"slices"
	"testing"

	"github.com/llenvs/llenvs-go/strictcfg"
)

// An extractor registered unlisted (as the test hooks' is) is built by its
// exact name, but never listed nor offered as the nearest name to a typo.
func TestUnlistedExtractorIsBuiltButNeverOffered(t *testing.T) {
	RegisterUnlisted("zz_unlisted_probe", func(map[string]any) (Extractor, error) { return NewTag("answer", true), nil })
	ex, err := New("zz_unlisted_probe", nil)
	if err != nil {
		t.Fatalf("New of the unlisted name: %v", err)
	}
	if got := ex.Extract("<answer>7</answer>"); got.Answer != "7" {
		t.Errorf("unlisted extractor extracted %q, want 7", got.Answer)
	}
	if slices.Contains(Names(), "zz_unlisted_probe") {
		t.Errorf("Names() lists the unlisted extractor: %v", Names())
	}
	if !slices.Contains(Names(), "tag_based") {
		t.Errorf("Names() lost the listed extractors: %v", Names())
	}
	for _, typo := range []string{"zz_unlisted_prob", "zz_unlisted_probes", "unlisted_probe"} {
		_, err := New(typo, nil)
		var nf *strictcfg.NotFoundError
		if !errors.As(err, &nf) {
			t.Fatalf("New(%q) = %v, want a NotFoundError", typo, err)
		}
		if nf.Suggestion == "zz_unlisted_probe" || slices.Contains(nf.Valid, "zz_unlisted_probe") {
			t.Errorf("New(%q) offers the unlisted name: suggestion %q, valid %v", typo, nf.Suggestion, nf.Valid)
		}
	}
}
