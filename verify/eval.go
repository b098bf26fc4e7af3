package verify

import (
	"math"
	"math/big"
	"math/cmplx"
)

var hundred = big.NewRat(100, 1)

// ratValue evaluates n exactly when it is a rational number.
func ratValue(n *Node, w *work) (*big.Rat, bool) {
	w.step(1)
	switch n.op {
	case opNum:
		return n.rat, true
	case opPct:
		r, ok := ratValue(n.args[0], w)
		if !ok {
			return nil, false
		}
		return new(big.Rat).Quo(r, hundred), true
	case opAdd, opMul:
		acc := new(big.Rat)
		if n.op == opMul {
			acc.SetInt64(1)
		}
		for _, a := range n.args {
			r, ok := ratValue(a, w)
			if !ok {
				return nil, false
			}
			if n.op == opAdd {
				acc.Add(acc, r)
			} else {
				acc.Mul(acc, r)
			}
			w.bits(acc.Num().BitLen() + acc.Denom().BitLen())
		}
		return acc, true
	case opPow:
		b, ok := ratValue(n.args[0], w)
		if !ok {
			return nil, false
		}
		e, ok := ratValue(n.args[1], w)
		if !ok {
			return nil, false
		}
		return ratPow(b, e, w)
	case opFact:
		x, ok := ratValue(n.args[0], w)
		if !ok || !x.IsInt() || x.Sign() < 0 {
			return nil, false
		}
		if x.Num().BitLen() > 20 {
			panic(&budgetError{"a factorial too large to compute"})
		}
		k := x.Num().Int64()
		// log2(k!) < k*log2(k)
		w.bits(int(float64(k) * math.Log2(float64(k)+1)))
		w.step(int(k))
		f := new(big.Int).MulRange(1, k)
		if k == 0 {
			f.SetInt64(1)
		}
		return new(big.Rat).SetInt(f), true
	case opFunc:
		return ratFunc(n, w)
	}
	return nil, false
}

// ratPow is b^e when it is rational; an exponent whose result would be
// too large is over budget.
func ratPow(b, e *big.Rat, w *work) (*big.Rat, bool) {
	if b.Sign() == 0 {
		if e.Sign() > 0 {
			return new(big.Rat), true
		}
		return nil, false // 0^0 left alone, 0^-k is infinite
	}
	if !e.IsInt() {
		q := e.Denom()
		if !q.IsInt64() || q.Int64() > 64 {
			return nil, false
		}
		k := q.Int64()
		if b.Sign() < 0 {
			return nil, false // principal roots of negatives are complex
		}
		rn, ok1 := intRoot(b.Num(), k)
		rd, ok2 := intRoot(b.Denom(), k)
		if !ok1 || !ok2 {
			return nil, false
		}
		root := new(big.Rat).SetFrac(rn, rd)
		return ratPow(root, new(big.Rat).SetInt(e.Num()), w)
	}
	if !e.Num().IsInt64() {
		panic(&budgetError{"a power with a huge exponent"})
	}
	k := e.Num().Int64()
	neg := k < 0
	if neg {
		k = -k
	}
	size := b.Num().BitLen()
	if d := b.Denom().BitLen(); d > size {
		size = d
	}
	unit := b.Denom().BitLen() == 1 && new(big.Int).Abs(b.Num()).BitLen() == 1
	if !unit && int64(size)*k > int64(w.b.MaxBits) {
		panic(&budgetError{"a power too large to compute"})
	}
	w.step(int(math.Min(float64(k), 64)))
	num := new(big.Int).Exp(new(big.Int).Abs(b.Num()), big.NewInt(k), nil)
	den := new(big.Int).Exp(b.Denom(), big.NewInt(k), nil)
	if b.Sign() < 0 && k%2 == 1 {
		num.Neg(num)
	}
	r := new(big.Rat).SetFrac(num, den)
	if neg {
		r.Inv(r)
	}
	return r, true
}

// intRoot is the exact k-th root of x >= 0, if it is an integer.
func intRoot(x *big.Int, k int64) (*big.Int, bool) {
	if x.Sign() == 0 {
		return new(big.Int), true
	}
	if k == 2 {
		r := new(big.Int).Sqrt(x)
		return r, new(big.Int).Mul(r, r).Cmp(x) == 0
	}
	// Newton's method from a float estimate is enough for the sizes a
	// budget allows; check the neighbours of the rounded estimate.
	f, _ := new(big.Float).SetInt(x).Float64()
	if math.IsInf(f, 0) {
		return nil, false
	}
	est := math.Round(math.Pow(f, 1/float64(k)))
	for d := -1.0; d <= 1; d++ {
		c, _ := big.NewFloat(est + d).Int(nil)
		if c.Sign() < 0 {
			continue
		}
		if new(big.Int).Exp(c, big.NewInt(k), nil).Cmp(x) == 0 {
			return c, true
		}
	}
	return nil, false
}

func ratFunc(n *Node, w *work) (*big.Rat, bool) {
	args := make([]*big.Rat, len(n.args))
	for i, a := range n.args {
		r, ok := ratValue(a, w)
		if !ok {
			return nil, false
		}
		args[i] = r
	}
	switch n.name {
	case "abs":
		if len(args) == 1 {
			return new(big.Rat).Abs(args[0]), true
		}
	case "floor", "ceiling":
		if len(args) == 1 {
			q, m := new(big.Int).DivMod(args[0].Num(), args[0].Denom(), new(big.Int))
			if n.name == "ceiling" && m.Sign() != 0 {
				q.Add(q, big.NewInt(1))
			}
			return new(big.Rat).SetInt(q), true
		}
	case "max", "min":
		if len(args) == 0 {
			return nil, false
		}
		best := args[0]
		for _, a := range args[1:] {
			if (n.name == "max") == (a.Cmp(best) > 0) {
				best = a
			}
		}
		return best, true
	case "gcd", "lcm":
		if len(args) < 2 {
			return nil, false
		}
		acc := new(big.Int)
		for i, a := range args {
			if !a.IsInt() {
				return nil, false
			}
			v := new(big.Int).Abs(a.Num())
			if i == 0 {
				acc.Set(v)
			} else if n.name == "gcd" {
				acc.GCD(nil, nil, acc, v)
			} else {
				if acc.Sign() == 0 || v.Sign() == 0 {
					acc.SetInt64(0)
					continue
				}
				g := new(big.Int).GCD(nil, nil, acc, v)
				acc.Mul(acc, v)
				acc.Quo(acc, g)
				w.bits(acc.BitLen())
			}
		}
		return new(big.Rat).SetInt(acc), true
	case "binomial":
		if len(args) == 2 && args[0].IsInt() && args[1].IsInt() {
			nn, k := args[0].Num(), args[1].Num()
			if !nn.IsInt64() || !k.IsInt64() || nn.Int64() > 100000 || nn.Sign() < 0 {
				return nil, false
			}
			w.step(int(k.Int64()) + 1)
			return new(big.Rat).SetInt(new(big.Int).Binomial(nn.Int64(), k.Int64())), true
		}
	case "mod":
		if len(args) == 2 && args[0].IsInt() && args[1].IsInt() && args[1].Sign() != 0 {
			m := new(big.Int).Mod(args[0].Num(), new(big.Int).Abs(args[1].Num()))
			return new(big.Rat).SetInt(m), true
		}
	case "sign":
		if len(args) == 1 {
			return big.NewRat(int64(args[0].Sign()), 1), true
		}
	}
	return nil, false
}

// complexValue evaluates n numerically, with the variables in env.
func complexValue(n *Node, env map[string]complex128, w *work) (complex128, bool) {
	w.step(1)
	switch n.op {
	case opNum:
		f, _ := n.rat.Float64()
		return complex(f, 0), true
	case opSym:
		v, ok := env[n.name]
		return v, ok
	case opConst:
		switch n.name {
		case "pi":
			return math.Pi, true
		case "e":
			return math.E, true
		case "i":
			return 1i, true
		}
		return 0, false
	case opPct:
		v, ok := complexValue(n.args[0], env, w)
		return v / 100, ok
	case opAdd, opMul:
		var acc complex128
		if n.op == opMul {
			acc = 1
		}
		for _, a := range n.args {
			v, ok := complexValue(a, env, w)
			if !ok {
				return 0, false
			}
			if n.op == opAdd {
				acc += v
			} else {
				acc *= v
			}
		}
		return acc, finite(acc)
	case opPow:
		if r, ok := ratValue(n, w); ok {
			f, _ := r.Float64()
			return complex(f, 0), finite(complex(f, 0))
		}
		b, ok1 := complexValue(n.args[0], env, w)
		e, ok2 := complexValue(n.args[1], env, w)
		if !ok1 || !ok2 {
			return 0, false
		}
		if b == 0 && real(e) <= 0 {
			return 0, false
		}
		var v complex128
		if imag(b) == 0 && imag(e) == 0 && (real(b) >= 0 || real(e) == math.Trunc(real(e))) {
			v = complex(math.Pow(real(b), real(e)), 0)
		} else {
			v = cmplx.Pow(b, e)
		}
		return v, finite(v)
	case opFact:
		x, ok := complexValue(n.args[0], env, w)
		if !ok || imag(x) != 0 || real(x) < 0 || real(x) > 170 {
			return 0, false
		}
		return complex(math.Gamma(real(x)+1), 0), true
	case opFunc:
		return complexFunc(n, env, w)
	}
	return 0, false
}

func finite(v complex128) bool {
	return !math.IsInf(real(v), 0) && !math.IsNaN(real(v)) && !math.IsInf(imag(v), 0) && !math.IsNaN(imag(v))
}

func complexFunc(n *Node, env map[string]complex128, w *work) (complex128, bool) {
	if r, ok := ratFunc(n, w); ok {
		f, _ := r.Float64()
		return complex(f, 0), true
	}
	args := make([]complex128, len(n.args))
	for i, a := range n.args {
		v, ok := complexValue(a, env, w)
		if !ok {
			return 0, false
		}
		args[i] = v
	}
	if len(args) == 0 {
		return 0, false
	}
	x := args[0]
	var v complex128
	switch n.name {
	case "sin":
		v = cmplx.Sin(x)
	case "cos":
		v = cmplx.Cos(x)
	case "tan":
		v = cmplx.Tan(x)
	case "cot":
		v = 1 / cmplx.Tan(x)
	case "sec":
		v = 1 / cmplx.Cos(x)
	case "csc":
		v = 1 / cmplx.Sin(x)
	case "asin":
		v = cmplx.Asin(x)
	case "acos":
		v = cmplx.Acos(x)
	case "atan":
		v = cmplx.Atan(x)
	case "sinh":
		v = cmplx.Sinh(x)
	case "cosh":
		v = cmplx.Cosh(x)
	case "tanh":
		v = cmplx.Tanh(x)
	case "exp":
		v = cmplx.Exp(x)
	case "log":
		if x == 0 {
			return 0, false
		}
		v = cmplx.Log(x)
		if len(args) == 2 {
			v /= cmplx.Log(args[1])
		}
	case "log10":
		v = cmplx.Log10(x)
	case "abs":
		v = complex(cmplx.Abs(x), 0)
	case "floor", "ceiling":
		if imag(x) != 0 {
			return 0, false
		}
		if n.name == "floor" {
			v = complex(math.Floor(real(x)), 0)
		} else {
			v = complex(math.Ceil(real(x)), 0)
		}
	case "max", "min":
		best := real(x)
		for _, a := range args {
			if imag(a) != 0 {
				return 0, false
			}
			if (n.name == "max") == (real(a) > best) {
				best = real(a)
			}
		}
		v = complex(best, 0)
	default:
		return 0, false
	}
	return v, finite(v)
}

// compareConst orders two expressions without variables: -1, 0 or 1.
func compareConst(a, b *Node, w *work) (int, bool) {
	ra, ok1 := ratValue(a, w)
	rb, ok2 := ratValue(b, w)
	if ok1 && ok2 {
		return ra.Cmp(rb), true
	}
	va, ok1 := realConst(a, w)
	vb, ok2 := realConst(b, w)
	if !ok1 || !ok2 {
		return 0, false
	}
	switch {
	case va < vb:
		return -1, true
	case va > vb:
		return 1, true
	}
	return 0, true
}

// realConst is the real value of an expression without variables; ∞
// counts as ±Inf.
func realConst(n *Node, w *work) (float64, bool) {
	if n.op == opConst && n.name == "oo" {
		return math.Inf(1), true
	}
	if n.op == opMul && len(n.args) == 2 && n.args[0].op == opNum && n.args[1].op == opConst && n.args[1].name == "oo" {
		return math.Inf(n.args[0].rat.Sign()), true
	}
	v, ok := complexValue(n, nil, w)
	if !ok || math.Abs(imag(v)) > 1e-12*math.Max(1, math.Abs(real(v))) {
		return 0, false
	}
	return real(v), true
}
