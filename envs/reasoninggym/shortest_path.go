package reasoninggym

import (
	"strings"

	"github.com/llenvs/llenvs-go/pycompat"
)

type shortestPathConfig struct {
	MinRows  int     `json:"min_rows"`
	MaxRows  int     `json:"max_rows"`
	MinCols  int     `json:"min_cols"`
	MaxCols  int     `json:"max_cols"`
	PBlocked float64 `json:"p_blocked"`
}

type shortestPath struct{ c shortestPathConfig }

func init() {
	Register("shortest_path", func(o Options) (Task, error) {
		c := shortestPathConfig{MinRows: 5, MaxRows: 8, MinCols: 5, MaxCols: 8, PBlocked: 0.4}
		if err := decodeParams("shortest_path", o.Params, &c); err != nil {
			return nil, err
		}
		if err := firstError(
			checkMin("shortest_path", "min_rows", c.MinRows, 1),
			checkOrder("shortest_path", "min_rows", c.MinRows, "max_rows", c.MaxRows),
			checkMin("shortest_path", "min_cols", c.MinCols, 1),
			checkOrder("shortest_path", "min_cols", c.MinCols, "max_cols", c.MaxCols),
			checkRange("shortest_path", "p_blocked", c.PBlocked, 0.0, 1.0),
		); err != nil {
			return nil, err
		}
		return &shortestPath{c}, nil
	})
}

const shortestPathTemplate = `Your task is to find the shortest path from the start to the destination point in a grid.

The grid is represented as a matrix with the following types of cells:
- *: your starting point
- #: your destination point
- O: an open cell
- X: a blocked cell

Therefore, you need to find the shortest path from * to #, moving only through open cells.

You may only move in four directions: up, down, left, and right.

If there is no path from * to #, simply write "infeasible" (without quotes).

Your output should be a sequence of directions that leads from * to #, e.g. right right down down up left

Now, find the shortest path from * to # in the following grid:
`

// puzzleDirs are the BFS moves in reasoning-gym's order.
var puzzleDirs = []struct {
	dr, dc int
	name   string
}{{0, 1, "right"}, {1, 0, "down"}, {0, -1, "left"}, {-1, 0, "up"}}

func (t *shortestPath) Generate(r *pycompat.Random, idx int64) (Entry, error) {
	c := &t.c
	rows := r.RandIntn(c.MinRows, c.MaxRows)
	cols := r.RandIntn(c.MinCols, c.MaxCols)
	if rows*cols < 2 {
		// Python loops forever looking for an end cell distinct from the start.
		return Entry{}, ConfigError("shortest_path", "a %dx%d grid has no room for distinct start and end cells", rows, cols)
	}
	grid := make([][]string, rows)
	for i := range grid {
		grid[i] = make([]string, cols)
		for j := range grid[i] {
			if r.Float() < c.PBlocked {
				grid[i][j] = "X"
			} else {
				grid[i][j] = "O"
			}
		}
	}
	sr, sc := r.RandIntn(0, rows-1), r.RandIntn(0, cols-1)
	grid[sr][sc] = "*"
	for {
		er, ec := r.RandIntn(0, rows-1), r.RandIntn(0, cols-1)
		if er != sr || ec != sc {
			grid[er][ec] = "#"
			break
		}
	}
	path := shortestPathBFS(grid, sr, sc)
	answer := "infeasible"
	if len(path) > 0 {
		answer = strings.Join(path, " ")
	}
	var q strings.Builder
	q.Grow(len(shortestPathTemplate) + rows*cols*2 + 1)
	q.WriteString(shortestPathTemplate)
	for i, row := range grid {
		if i > 0 {
			q.WriteByte('\n')
		}
		for j, cell := range row {
			if j > 0 {
				q.WriteByte(' ')
			}
			q.WriteString(cell)
		}
	}
	q.WriteByte('\n')
	e := Entry{
		Question: q.String(),
		Answer:   answer,
	}
	e.Meta = func() map[string]any {
		return map[string]any{
			"source_dataset": "shortest_path",
			"source_index":   idx,
			"matrix":         grid,
			"solution":       path,
			"difficulty": map[string]any{
				"rows": []int{c.MinRows, c.MaxRows},
				"cols": []int{c.MinCols, c.MaxCols},
			},
		}
	}
	return e, nil
}

// shortestPathBFS is reasoning-gym's BFS: the search ends as soon as a
// neighbour is the destination; open cells are marked when enqueued.
func shortestPathBFS(grid [][]string, sr, sc int) []string {
	rows, cols := len(grid), len(grid[0])
	// Each reached cell records the cell and direction it was reached
	// from, so a path is built once, for the end cell, instead of copied
	// into every queued node.
	from := make([]int32, rows*cols)
	dir := make([]int8, rows*cols)
	visited := make([]bool, rows*cols)
	start := sr*cols + sc
	visited[start] = true
	queue := make([]int, 1, rows*cols)
	queue[0] = start
	for head := 0; head < len(queue); head++ {
		cur := queue[head]
		r, c := cur/cols, cur%cols
		for di, d := range puzzleDirs {
			nr, nc := r+d.dr, c+d.dc
			if nr < 0 || nr >= rows || nc < 0 || nc >= cols || visited[nr*cols+nc] {
				continue
			}
			switch grid[nr][nc] {
			case "#":
				n := 1
				for x := cur; x != start; x = int(from[x]) {
					n++
				}
				path := make([]string, n)
				path[n-1] = d.name
				k := n - 2
				for x := cur; x != start; x = int(from[x]) {
					path[k] = puzzleDirs[dir[x]].name
					k--
				}
				return path
			case "O":
				next := nr*cols + nc
				visited[next] = true
				from[next], dir[next] = int32(cur), int8(di)
				queue = append(queue, next)
			}
		}
	}
	return []string{}
}

// shortestPathMatrix reads metadata["matrix"] ([][]string, or the []any of
// a JSON round trip).
func shortestPathMatrix(e *Entry) [][]string {
	switch m := e.Metadata["matrix"].(type) {
	case [][]string:
		return m
	case []any:
		out := make([][]string, len(m))
		for i, row := range m {
			items, _ := row.([]any)
			out[i] = make([]string, len(items))
			for j, v := range items {
				out[i][j], _ = v.(string)
			}
		}
		return out
	}
	return nil
}

// shortestPathValid is reasoning-gym's _is_valid_path: known direction
// words only, never off the grid or onto X, ending on #.
func shortestPathValid(m [][]string, path []string) bool {
	sr, sc, er, ec := -1, -1, -1, -1
	for i, row := range m {
		for j, v := range row {
			if v == "*" && sr < 0 {
				sr, sc = i, j
			}
			if v == "#" && er < 0 {
				er, ec = i, j
			}
		}
	}
	if sr < 0 || er < 0 {
		return false
	}
	r, c := sr, sc
	for _, p := range path {
		var dr, dc int
		switch p {
		case "right":
			dc = 1
		case "down":
			dr = 1
		case "left":
			dc = -1
		case "up":
			dr = -1
		default:
			return false
		}
		r, c = r+dr, c+dc
		if r < 0 || r >= len(m) || c < 0 || c >= len(m[r]) {
			return false
		}
		if m[r][c] == "X" {
			return false
		}
	}
	return r == er && c == ec
}

func (t *shortestPath) Score(answer string, ok bool, e *Entry) float64 {
	if !ok || answer == "" {
		return 0
	}
	oracle := pycompat.Strip(e.Answer)
	answer = pycompat.Strip(answer)
	if answer == oracle {
		return 1
	}
	path := strings.FieldsFunc(answer, pycompat.IsSpace)
	if !shortestPathValid(shortestPathMatrix(e), path) {
		return 0
	}
	if len(path) == len(strings.FieldsFunc(oracle, pycompat.IsSpace)) {
		return 1
	}
	return 0.5
}
