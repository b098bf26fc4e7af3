package recipes
import ("os";"testing";"sort";"fmt")
func TestZZReasons(t *testing.T) {
	rows := loadCorpus(t, os.Getenv("RECIPES_CORPUS"))
	cnt := map[string]int{}
	ex := map[string]string{}
	for _, r := range rows {
		g := ScoreVerl(r.DataSource, r.Solution, r.GroundTruth)
		if g.Status == StatusError || g.Status == StatusTimeout {
			f, _ := VerlFamily(r.DataSource)
			k := f + ": " + g.Reason
			cnt[k]++
			if _, ok := ex[k]; !ok { ex[k] = fmt.Sprintf("%q | gt %q | veRL %s", clipForLog(r.Solution[max(0,len(r.Solution)-120):]), r.GroundTruth, r.Expected) }
		}
	}
	keys := []string{}
	for k := range cnt { keys = append(keys, k) }
	sort.Slice(keys, func(i,j int) bool { return cnt[keys[i]] > cnt[keys[j]] })
	for _, k := range keys { t.Logf("%5d %s\n      %s", cnt[k], k, ex[k]) }
}
