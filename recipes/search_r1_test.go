package recipes

import (
	"strings"
	"testing"
)

func TestSearchR1(t *testing.T) {
	paris := `{"target": ["Paris"]}`
	runScoreCases(t, "search_r1", []scoreCase{
		{"exact", "<answer>Paris</answer>", paris, 1, StatusCorrect},
		{"normalized", "<answer> the  PARIS. </answer>", paris, 1, StatusCorrect},
		{"second target", "<answer>obama</answer>", `{"target": ["Barack Obama", "Obama"]}`, 1, StatusCorrect},
		{"string target", "<answer>Paris</answer>", `{"target": "Paris"}`, 1, StatusCorrect},
		{"wrong", "<answer>Lyon</answer>", paris, 0, StatusIncorrect},
		{"last tag wins", "<answer>Lyon</answer><answer>Paris</answer>", paris, 1, StatusCorrect},
		{"unclosed", "<answer>Paris", paris, 0, StatusNoAnswer},
		{"nested opens", "<answer><answer>Paris</answer>", paris, 0, StatusIncorrect},
		{"multiline", "<answer>\nParis\n</answer>", paris, 1, StatusCorrect},
		{"ten tags full score", strings.Repeat("<answer>Paris</answer>", 10), paris, 1, StatusCorrect},
		{"eleven tags quarter score", strings.Repeat("<answer>Paris</answer>", 11), paris, 0.25, StatusIncorrect},
		{"eleven closing tags", "<answer>Paris</answer>" + strings.Repeat("</answer>", 10), paris, 0.25, StatusIncorrect},
		{"eleven tags wrong", strings.Repeat("<answer>Lyon</answer>", 11), paris, 0, StatusIncorrect},
		{"article glued to CJK stays", "<answer>中国the</answer>", `{"target": ["\u4e2d\u56fd"]}`, 0, StatusIncorrect},
		{"dotted capital I", "<answer>istanbul</answer>", `{"target": ["\u0130stanbul"]}`, 0, StatusIncorrect},
		{"final sigma", "<answer>οδυσσευς</answer>", `{"target": ["ΟΔΥΣΣΕΥΣ"]}`, 1, StatusCorrect},
		{"punctuation removed inside words", "<answer>U.S.</answer>", `{"target": ["US"]}`, 1, StatusCorrect},
		{"underscore is punctuation", "<answer>x_y</answer>", `{"target": ["xy"]}`, 1, StatusCorrect},
		{"non-ascii punctuation kept", "<answer>«Paris»</answer>", paris, 0, StatusIncorrect},
		{"only articles", "<answer>the</answer>", `{"target": ["a"]}`, 1, StatusCorrect},
		{"nbsp is whitespace", "<answer>New\u00a0York</answer>", `{"target": ["new york"]}`, 1, StatusCorrect},
		{"empty answer", "<answer></answer>", `{"target": [""]}`, 1, StatusCorrect},
	})
}

// Ground truths that are not veRL's dict: our encoding (see search_r1.go).
func TestSearchR1GroundTruthEncodings(t *testing.T) {
	runScoreCases(t, "search_r1", []scoreCase{
		{"JSON array of targets", "<answer>obama</answer>", `["Barack Obama", "Obama"]`, 1, StatusCorrect},
		{"plain string", "<answer>the Beatles</answer>", "Beatles", 1, StatusCorrect},
		{"plain string that looks like JSON", "<answer>[1, 2]</answer>", "[1, 2]", 1, StatusCorrect},
		{"no answer ignores a bad ground truth", "Paris", `{"answers": ["Paris"]}`, 0, StatusNoAnswer},
		{"match before a bad target", "<answer>Paris</answer>", `{"target": ["Paris", 5]}`, 1, StatusCorrect},
		{"empty target list", "<answer>Paris</answer>", `{"target": []}`, 0, StatusIncorrect},
	})
	for _, gt := range []string{`{"answers": ["Paris"]}`, `{"target": 5}`, `{"target": null}`, `{"target": [5, "Paris"]}`, `{"target": {"Paris": 1}}`} {
		if r := searchR1Rule("<answer>Paris</answer>", gt); r.Status != StatusError || r.Reason == "" || r.Score != 0 {
			t.Errorf("ground truth %s: got %+v, want StatusError (veRL raises)", gt, r)
		}
	}
}

func TestSquadNormalize(t *testing.T) {
	for in, want := range map[string]string{
		"The  Beatles!":     "beatles",
		"İstanbul":          "i\u0307stanbul",
		"ΟΔΥΣΣΕΥΣ":          "οδυσσευς",
		"a·the·b":           "· ·b",
		"éa an b":           "éa b",
		"x\u2028the\u00a0y": "x y",
		"":                  "",
		"  an  apple  a ":   "apple",
		"Rock 'n' roll":     "rock n roll",
	} {
		if got := squadNormalize(in); got != want {
			t.Errorf("squadNormalize(%q) = %q, want %q", in, got, want)
		}
	}
}

// veRL reads the whole response; the rule must stay linear on long ones.
func TestSearchR1LongResponse(t *testing.T) {
	// The first opening tag pairs with the only closing one.
	long := strings.Repeat("<answer>x", 1<<17) + "<answer>Paris</answer>"
	if r := searchR1Rule(long, `{"target": ["Paris"]}`); r.Status != StatusIncorrect || r.Score != 0 {
		t.Fatalf("got %+v", r)
	}
	many := strings.Repeat("<answer>x</answer>", 1<<17) + "<answer>Paris</answer>"
	if r := searchR1Rule(many, `{"target": ["Paris"]}`); r.Score != 0.25 {
		t.Fatalf("got %+v", r)
	}
	opens := strings.Repeat("<answer>", 1<<17)
	if r := searchR1Rule(opens, `{"target": ["Paris"]}`); r.Status != StatusNoAnswer {
		t.Fatalf("got %+v", r)
	}
}
