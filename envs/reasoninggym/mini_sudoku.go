package reasoninggym

import (
	"strconv"
	"strings"

	"github.com/llenvs/llenvs-go/pycompat"
)

type miniSudokuConfig struct {
	MinEmpty int `json:"min_empty"`
	MaxEmpty int `json:"max_empty"`
}

type miniSudoku struct{ c miniSudokuConfig }

func init() {
	Register("mini_sudoku", func(o Options) (Task, error) {
		c := miniSudokuConfig{MinEmpty: 8, MaxEmpty: 12}
		if err := decodeParams("mini_sudoku", o.Params, &c); err != nil {
			return nil, err
		}
		if err := firstError(
			checkRange("mini_sudoku", "min_empty", c.MinEmpty, 0, 12),
			checkOrder("mini_sudoku", "min_empty", c.MinEmpty, "max_empty", c.MaxEmpty),
			checkMax("mini_sudoku", "max_empty", c.MaxEmpty, 12),
		); err != nil {
			return nil, err
		}
		return &miniSudoku{c}, nil
	})
}

type puzzleBoard4 [4][4]int

func (b *puzzleBoard4) valid(row, col, num int) bool {
	for j := 0; j < 4; j++ {
		if b[row][j] == num {
			return false
		}
	}
	for i := 0; i < 4; i++ {
		if b[i][col] == num {
			return false
		}
	}
	br, bc := 2*(row/2), 2*(col/2)
	for i := br; i < br+2; i++ {
		for j := bc; j < bc+2; j++ {
			if b[i][j] == num {
				return false
			}
		}
	}
	return true
}

func (b *puzzleBoard4) firstEmpty() (int, int, bool) {
	for i := 0; i < 4; i++ {
		for j := 0; j < 4; j++ {
			if b[i][j] == 0 {
				return i, j, true
			}
		}
	}
	return 0, 0, false
}

// solve fills b by backtracking (first empty cell row-major, digits 1..4)
// and reports whether it succeeded; on failure b is left as it was.
func (b *puzzleBoard4) solve() bool {
	row, col, ok := b.firstEmpty()
	if !ok {
		return true
	}
	for num := 1; num <= 4; num++ {
		if b.valid(row, col, num) {
			b[row][col] = num
			if b.solve() {
				return true
			}
			b[row][col] = 0
		}
	}
	return false
}

// countSolutions counts completions of b, stopping once limit is reached;
// it works on its own copy.
func (b puzzleBoard4) countSolutions(limit int) int {
	return b.countInPlace(limit)
}

func (b *puzzleBoard4) countInPlace(limit int) int {
	row, col, ok := b.firstEmpty()
	if !ok {
		return 1
	}
	count := 0
	for num := 1; num <= 4; num++ {
		if b.valid(row, col, num) {
			b[row][col] = num
			count += b.countInPlace(limit)
			if count >= limit {
				return count
			}
			b[row][col] = 0
		}
	}
	return count
}

func (b *puzzleBoard4) String() string {
	var sb strings.Builder
	for i := 0; i < 4; i++ {
		if i > 0 {
			sb.WriteByte('\n')
		}
		for j := 0; j < 4; j++ {
			if j > 0 {
				sb.WriteByte(' ')
			}
			if b[i][j] == 0 {
				sb.WriteByte('_')
			} else {
				sb.WriteString(strconv.Itoa(b[i][j]))
			}
		}
	}
	return sb.String()
}

func (b *puzzleBoard4) rows() [][]int {
	out := make([][]int, 4)
	for i := range out {
		out[i] = append([]int(nil), b[i][:]...)
	}
	return out
}

func (t *miniSudoku) Generate(r *pycompat.Random, idx int64) (Entry, error) {
	var solved puzzleBoard4
	ok := false
	for attempt := 0; attempt < 100 && !ok; attempt++ {
		solved = puzzleBoard4{}
		for i := 0; i < 4; i += 2 {
			nums := []int{1, 2, 3, 4}
			r.Shuffle(4, func(a, b int) { nums[a], nums[b] = nums[b], nums[a] })
			pos := 0
			for row := i; row < i+2; row++ {
				for col := i; col < i+2; col++ {
					solved[row][col] = nums[pos]
					pos++
				}
			}
		}
		ok = solved.solve()
	}
	if !ok {
		return Entry{}, ConfigError("mini_sudoku", "failed to generate a valid mini sudoku board")
	}

	numEmpty := r.RandIntn(t.c.MinEmpty, t.c.MaxEmpty)
	puzzle := solved
	cells := make([][2]int, 0, 16)
	for i := 0; i < 4; i++ {
		for j := 0; j < 4; j++ {
			cells = append(cells, [2]int{i, j})
		}
	}
	r.Shuffle(len(cells), func(a, b int) { cells[a], cells[b] = cells[b], cells[a] })
	removed := 0
	for _, cell := range cells {
		i, j := cell[0], cell[1]
		saved := puzzle[i][j]
		puzzle[i][j] = 0
		if puzzle.countSolutions(2) > 1 {
			puzzle[i][j] = saved
		} else {
			removed++
			if removed == numEmpty {
				break
			}
		}
	}
	empty := 0
	for i := 0; i < 4; i++ {
		for j := 0; j < 4; j++ {
			if puzzle[i][j] == 0 {
				empty++
			}
		}
	}
	question := "In 4x4 Mini Sudoku:\n" +
		"- Each row must contain each number from 1-4 exactly once\n" +
		"- Each column must contain each number 1-4 exactly once\n" +
		"- Each 2x2 subgrid must contain each number 1-4 exactly once\n" +
		"Solve this 4x4 Mini Sudoku puzzle:\n" + puzzle.String() + "\n" +
		"Format your response as the puzzle above, with spaces separating each number within a row, and newlines separating rows.\n"
	e := Entry{
		Question: question,
		Answer:   solved.String(),
	}
	e.Meta = func() map[string]any {
		return map[string]any{
			"source_dataset": "mini_sudoku",
			"source_index":   idx,
			"puzzle":         puzzle.rows(),
			"solution":       solved.rows(),
			"num_empty":      empty,
			"difficulty": map[string]any{
				"empty": []int{t.c.MinEmpty, t.c.MaxEmpty},
			},
		}
	}
	return e, nil
}

// miniSudokuSolution reads metadata["solution"] ([][]int, or the []any of a
// JSON round trip), falling back to the oracle board string.
func miniSudokuSolution(e *Entry) [][]int {
	switch s := e.Metadata["solution"].(type) {
	case [][]int:
		return s
	case []any:
		out := make([][]int, 0, len(s))
		for _, row := range s {
			items, _ := row.([]any)
			r := make([]int, 0, len(items))
			for _, v := range items {
				switch x := v.(type) {
				case float64:
					r = append(r, int(x))
				case int:
					r = append(r, x)
				}
			}
			out = append(out, r)
		}
		return out
	}
	var out [][]int
	for _, line := range strings.Split(e.Answer, "\n") {
		var r []int
		for _, f := range strings.Fields(line) {
			n, _ := strconv.Atoi(f)
			r = append(r, n)
		}
		out = append(out, r)
	}
	return out
}

func puzzleRstripLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRightFunc(l, pycompat.IsSpace)
	}
	return strings.Join(lines, "\n")
}

func (t *miniSudoku) Score(answer string, ok bool, e *Entry) float64 {
	if !ok || answer == "" {
		return 0
	}
	oracle := e.Answer
	solution := miniSudokuSolution(e)
	if len(solution) == 0 {
		return 0
	}
	size := len(solution[0])
	var reward float64
	if puzzleRstripLines(answer) == puzzleRstripLines(oracle) {
		reward = 1
	} else {
		row, matching := 0, 0
		for _, ln := range strings.Split(answer, "\n") {
			if row >= len(solution) {
				break
			}
			var numbers []int
			for i := 0; i < len(ln); i++ {
				if c := ln[i]; c >= '1' && c <= '9' {
					numbers = append(numbers, int(c-'0'))
				}
			}
			if len(numbers) != size {
				continue
			}
			for k := 0; k < len(solution[row]) && k < len(numbers); k++ {
				if solution[row][k] == numbers[k] {
					matching++
				}
			}
			row++
		}
		reward = float64(matching) / float64(size*size)
		reward *= 0.9
	}
	if la, lo := pycompat.Len(answer), pycompat.Len(oracle); la > lo {
		reward *= float64(lo) / float64(la)
	}
	return reward
}
