package core

import (
	"errors"
	"fmt"
	"testing"

	"github.com/llenvs/llenvs-go/strictcfg"
)

func TestBuildExtractorChain(t *testing.T) {
	cfg := EnvConfig{Name: "x", AnswerExtractors: []any{
		map[string]any{"type": "gsm8k"},
		map[string]any{"type": "numeric"},
	}, PostCleaners: []any{"strip_trailing_punctuation"}}
	ex, err := BuildExtractor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	x := ex.Extract("so 12 and then 4.")
	if x.Answer != "4" {
		t.Errorf("answer %q", x.Answer)
	}
	m := ex.Describe(x)
	if m["extractor_index"] != 1 || m["post_cleaners_applied"] != true {
		t.Errorf("Describe = %v", m)
	}
}

func TestCheckSizeNamesTheRange(t *testing.T) {
	for _, size := range []int64{1, 500, MaxSize} {
		if err := CheckSize("x", size); err != nil {
			t.Errorf("CheckSize(%d) = %v", size, err)
		}
	}
	for _, size := range []int64{0, -1, MaxSize + 1, 1<<63 - 1} {
		err := CheckSize("x", size)
		want := fmt.Sprintf("x: size must be a positive integer from 1 to 2**40 (1099511627776), got %d", size)
		if err == nil || err.Error() != want {
			t.Errorf("CheckSize(%d) = %v, want %q", size, err, want)
		}
	}
}

// An Unlisted adapter builds its environments, but stays out of the
// listings and of the suggestions for a mistyped adapter name.
func TestUnlistedAdapterIsBuiltButNeverOffered(t *testing.T) {
	built := false
	RegisterAdapter(Adapter{Name: "zz_unlisted_adapter", Unlisted: true,
		New: func(cfg EnvConfig) (Environment, error) {
			built = true
			return nil, fmt.Errorf("built %s", cfg.Name)
		},
		List: func() []string { return []string{"zz_env"} }})
	cases := []struct {
		what string
		got  bool
	}{
		{"AdapterNames lists it", contains(AdapterNames(), "zz_unlisted_adapter")},
		{"ListEnvironments lists it", ListEnvironments()["zz_unlisted_adapter"] != nil},
	}
	for _, c := range cases {
		if c.got {
			t.Error(c.what)
		}
	}
	if _, err := NewEnvironment(EnvConfig{Name: "zz_env", Adapter: "zz_unlisted_adapter"}); !built || err == nil ||
		err.Error() != "built zz_env" {
		t.Errorf("NewEnvironment of the unlisted adapter: built %v, err %v", built, err)
	}
	_, err := NewEnvironment(EnvConfig{Name: "zz_env", Adapter: "zz_unlisted_adaptr"})
	var nf *strictcfg.NotFoundError
	if !errors.As(err, &nf) || nf.Suggestion == "zz_unlisted_adapter" || contains(nf.Valid, "zz_unlisted_adapter") {
		t.Errorf("a mistyped adapter name is offered the unlisted one: %v", err)
	}
}

func contains(names []string, name string) bool {
	for _, n := range names {
		if n == name {
			return true
		}
	}
	return false
}
