package verify

import "fmt"

// maxMatrixDim bounds the rows and columns of a matrix.
const maxMatrixDim = 16

// matrixEnvs are the environments read as matrices; vmatrix is a
// determinant.
var matrixEnvs = map[string]bool{
	"pmatrix": true, "bmatrix": true, "Bmatrix": true, "matrix": true, "smallmatrix": true, "array": true,
	"vmatrix": true, "Vmatrix": true,
}

// matrix reads the body of \begin{env} ... \end{env}: entries separated
// by & and rows by \\ (a final \\ is allowed).
func (p *parser) matrix(env string) (*Node, error) {
	if !matrixEnvs[env] {
		return nil, fmt.Errorf("unsupported environment %q", env)
	}
	end := func() bool { return p.is(tCmd, "end:"+env) }
	var rows [][]Value
	var row []Value
	for {
		if end() {
			if len(row) > 0 {
				rows = append(rows, row)
			}
			p.next()
			break
		}
		if p.peek().kind == tEOF {
			return nil, fmt.Errorf("\\begin{%s} is not closed", env)
		}
		x, err := p.expr()
		if err != nil {
			return nil, err
		}
		if err := noSets(x); err != nil {
			return nil, err
		}
		row = append(row, exprValue(x))
		switch {
		case p.accept(tPunc, "&"):
			if end() || p.is(tPunc, `\\`) {
				return nil, fmt.Errorf("an empty matrix entry")
			}
		case p.accept(tPunc, `\\`):
			rows = append(rows, row)
			row = nil
		case end():
		default:
			t := p.peek()
			return nil, fmt.Errorf("unexpected %q in a matrix at byte %d", t.text, t.pos)
		}
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("an empty matrix")
	}
	cols := len(rows[0])
	if len(rows) > maxMatrixDim || cols > maxMatrixDim {
		return nil, fmt.Errorf("a matrix larger than %dx%d", maxMatrixDim, maxMatrixDim)
	}
	var items []Value
	for _, r := range rows {
		if len(r) != cols {
			return nil, fmt.Errorf("matrix rows of %d and %d entries", cols, len(r))
		}
		items = append(items, r...)
	}
	m := Value{Kind: KindMatrix, Items: items, Rows: len(rows), Cols: cols}
	if env == "vmatrix" || env == "Vmatrix" {
		if m.Rows != m.Cols || m.Rows > 4 {
			return nil, fmt.Errorf("a determinant of a %dx%d matrix", m.Rows, m.Cols)
		}
		return p.node(determinant(m)), nil
	}
	return p.node(&Node{op: opSet, val: &m}), nil
}

// determinant of a square matrix of at most 4 rows, by cofactors.
func determinant(m Value) *Node {
	n := m.Rows
	if n == 1 {
		return m.Items[0].Expr
	}
	var terms []*Node
	for c := 0; c < n; c++ {
		minor := Value{Kind: KindMatrix, Rows: n - 1, Cols: n - 1}
		for r := 1; r < n; r++ {
			for k := 0; k < n; k++ {
				if k != c {
					minor.Items = append(minor.Items, m.Items[r*n+k])
				}
			}
		}
		t := mul(m.Items[c].Expr, determinant(minor))
		if c%2 == 1 {
			t = neg(t)
		}
		terms = append(terms, t)
	}
	return add(terms...)
}

func hasMatrix(n *Node) bool {
	if n.op == opSet && n.val.Kind == KindMatrix {
		return true
	}
	for _, a := range n.args {
		if hasMatrix(a) {
			return true
		}
	}
	return false
}

// matrixValue evaluates an expression with matrices in it: sums of
// matrices of one shape, products with numbers and of matrices whose
// shapes fit, and transposes (M^T). Other operations on a matrix (M^2,
// M^{-1}, functions) are not evaluated, so such an answer does not parse;
// math-verify does not evaluate them either, and they compare as unequal
// there too.
func matrixValue(n *Node, w *work) (Value, error) {
	m, s, err := matrixEval(n, w)
	if err != nil {
		return Value{}, err
	}
	if m == nil {
		return exprValue(s), nil
	}
	return *m, nil
}

// matrixEval is n as a matrix (m) or, without matrices in it, as is (s).
func matrixEval(n *Node, w *work) (m *Value, s *Node, err error) {
	w.step(1)
	if !hasMatrix(n) {
		if err := noSets(n); err != nil {
			return nil, nil, err
		}
		return nil, n, nil
	}
	switch n.op {
	case opSet:
		return n.val, nil, nil
	case opAdd:
		var acc *Value
		for _, a := range n.args {
			am, _, err := matrixEval(a, w)
			if err != nil {
				return nil, nil, err
			}
			if am == nil {
				return nil, nil, fmt.Errorf("a number added to a matrix")
			}
			if acc == nil {
				acc = am
				continue
			}
			if am.Rows != acc.Rows || am.Cols != acc.Cols {
				return nil, nil, fmt.Errorf("matrices of %dx%d and %dx%d added", acc.Rows, acc.Cols, am.Rows, am.Cols)
			}
			sum := Value{Kind: KindMatrix, Rows: acc.Rows, Cols: acc.Cols, Items: make([]Value, len(acc.Items))}
			for i := range sum.Items {
				w.step(1)
				sum.Items[i] = exprValue(add(acc.Items[i].Expr, am.Items[i].Expr))
			}
			acc = &sum
		}
		return acc, nil, nil
	case opMul:
		var accM *Value
		var scalars []*Node
		for _, a := range n.args {
			am, as, err := matrixEval(a, w)
			if err != nil {
				return nil, nil, err
			}
			if am == nil {
				scalars = append(scalars, as)
				continue
			}
			if accM == nil {
				accM = am
				continue
			}
			prod, err := matMul(*accM, *am, w)
			if err != nil {
				return nil, nil, err
			}
			accM = &prod
		}
		if len(scalars) == 0 {
			return accM, nil, nil
		}
		k := mul(scalars...)
		out := Value{Kind: KindMatrix, Rows: accM.Rows, Cols: accM.Cols, Items: make([]Value, len(accM.Items))}
		for i, it := range accM.Items {
			w.step(1)
			out.Items[i] = exprValue(mul(k, it.Expr))
		}
		return &out, nil, nil
	case opPow:
		if e := n.args[1]; e.op == opSym && e.name == "t" && !hasMatrix(e) {
			am, _, err := matrixEval(n.args[0], w)
			if err != nil {
				return nil, nil, err
			}
			if am == nil {
				return nil, nil, fmt.Errorf("a transpose of a number")
			}
			t := Value{Kind: KindMatrix, Rows: am.Cols, Cols: am.Rows, Items: make([]Value, len(am.Items))}
			for r := 0; r < am.Rows; r++ {
				for c := 0; c < am.Cols; c++ {
					t.Items[c*am.Rows+r] = am.Items[r*am.Cols+c]
				}
			}
			return &t, nil, nil
		}
	}
	return nil, nil, fmt.Errorf("an operation on a matrix that is not evaluated")
}

func matMul(a, b Value, w *work) (Value, error) {
	if a.Cols != b.Rows {
		return Value{}, fmt.Errorf("matrices of %dx%d and %dx%d multiplied", a.Rows, a.Cols, b.Rows, b.Cols)
	}
	out := Value{Kind: KindMatrix, Rows: a.Rows, Cols: b.Cols, Items: make([]Value, a.Rows*b.Cols)}
	for r := 0; r < a.Rows; r++ {
		for c := 0; c < b.Cols; c++ {
			terms := make([]*Node, a.Cols)
			for k := 0; k < a.Cols; k++ {
				w.step(1)
				terms[k] = mul(a.Items[r*a.Cols+k].Expr, b.Items[k*b.Cols+c].Expr)
			}
			out.Items[r*b.Cols+c] = exprValue(add(terms...))
		}
	}
	return out, nil
}
