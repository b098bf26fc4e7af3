package main

import (
	"testing"

	"github.com/llenvs/llenvs-go/recipes"
)

// FuzzRecipeDetails builds the details batch of llenvs_recipe_score_batch
// from arbitrary preds and reasons and reads every row back: a pred only
// for dict families, every reason as given, and no batch at all when no
// item has either.
func FuzzRecipeDetails(f *testing.F) {
	f.Add("72", "", true, false)
	f.Add("", "no rule for data_source", false, true)
	f.Add("\xed\xa0\x80x", "cut\xff", true, true)
	f.Add("", "", false, false)
	f.Fuzz(func(t *testing.T, pred, reason string, dict0, dict1 bool) {
		results := []recipes.Result{
			{Dict: dict0, Pred: pred, Reason: reason},
			{},
			{Dict: dict1, Pred: reason, Reason: pred},
		}
		if !dict1 {
			results[2].Pred = ""
		}
		batch, err := recipeDetails(results)
		if err != nil {
			t.Fatalf("recipeDetails: %v", err)
		}
		needed := dict0 || dict1 || reason != "" || pred != ""
		if batch == nil {
			if needed {
				t.Fatalf("no details for %+v", results)
			}
			return
		}
		defer batch.free()
		if !needed {
			t.Fatalf("details built for a batch with nothing to say")
		}
		if batch.length != 3 || len(batch.children) != 2 || batch.children[0].name != "pred" ||
			batch.children[1].name != "reason" {
			t.Fatalf("%d rows, %d columns; want 3 rows of pred and reason", batch.length, len(batch.children))
		}
		nulls := int64(0)
		for r, res := range results {
			got := utf8At(batch.children[0], r)
			if (got != nil) != res.Dict || got != nil && *got != res.Pred {
				t.Fatalf("row %d pred %v, want %q (dict %v)", r, got, res.Pred, res.Dict)
			}
			if got == nil {
				nulls++
			}
			if got := utf8At(batch.children[1], r); got == nil || *got != res.Reason {
				t.Fatalf("row %d reason %v, want %q", r, got, res.Reason)
			}
		}
		if batch.children[0].nulls != nulls || batch.children[1].nulls != 0 {
			t.Fatalf("null counts %d and %d, want %d and 0", batch.children[0].nulls, batch.children[1].nulls, nulls)
		}
	})
}
