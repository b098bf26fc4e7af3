package verify

import (
	"strings"
	"testing"
	"time"
)

// TestMathVerifyGaps holds the verdicts math-verify 0.9 gives (run on the
// installed package, not derived from this code) for the kinds of answers
// where the two used to disagree: matrices and vectors, units in styled
// text, approximations, named tuples and relations against the sets of
// their solutions.
func TestMathVerifyGaps(t *testing.T) {
	cases := []struct {
		name, gold, pred string
		asr              bool // allow_set_relation_comp
		want             bool
	}{
		// matrices and vectors
		{"identity", `$\begin{pmatrix}1 & 0 \\ 0 & 1\end{pmatrix}$`, `The identity matrix is $ \begin{pmatrix}1 & 0 \\ 0 & 1\end{pmatrix} $.`, false, true},
		{"bmatrix vs pmatrix", `$\begin{bmatrix}0 & 0 \\0 & 0\end{bmatrix}$`, `$ \begin{pmatrix}0 & 0 \\0 & 0\end{pmatrix} $`, false, true},
		{"array in brackets", `$\begin{pmatrix}1 & 2 \\3 & 4\end{pmatrix}$`, `$ \left[\begin{array}{cc}1 & 2 \\3 & 4\end{array}\right] $`, false, true},
		{"matrix in brackets", `$\begin{pmatrix}1 & 2 \\ 3 & 4\end{pmatrix}$`, `$\left[\begin{matrix} 1 & 2 \\ 3 & 4 \end{matrix}\right]$`, false, true},
		{"fraction entries", `$\begin{pmatrix}\frac{1}{2} & \frac{3}{4}\end{pmatrix}$`, `$\begin{pmatrix}\dfrac{2}{4} & 0.75\end{pmatrix}$`, false, true},
		{"expression entries", `$\begin{pmatrix} x+1 \\ 2 \end{pmatrix}$`, `$\begin{pmatrix} 1+x \\ 2 \end{pmatrix}$`, false, true},
		{"sum", `$\begin{pmatrix}6 & 8 \\ 10 & 12\end{pmatrix}$`, `$\begin{pmatrix}1 & 2 \\ 3 & 4\end{pmatrix} + \begin{pmatrix}5 & 6 \\ 7 & 8\end{pmatrix}$`, false, true},
		{"product", `$\begin{pmatrix}1 & 0 \\ 0 & 1\end{pmatrix}$`, `$\begin{pmatrix}1 & 0 \\ 0 & 1\end{pmatrix} \begin{pmatrix}1 & 0 \\ 0 & 1\end{pmatrix}$`, false, true},
		{"scalar multiple", `$\begin{pmatrix} 2 & 4 \\ 6 & 8 \end{pmatrix}$`, `$2\begin{pmatrix} 1 & 2 \\ 3 & 4 \end{pmatrix}$`, false, true},
		{"transpose", `$\begin{pmatrix} 1 & 3 \\ 2 & 4 \end{pmatrix}$`, `$\begin{pmatrix} 1 & 2 \\ 3 & 4 \end{pmatrix}^T$`, false, true},
		{"not the transpose", `$\begin{pmatrix} 1 & 2 \\ 3 & 4 \end{pmatrix}$`, `$\begin{pmatrix} 1 & 2 \\ 3 & 4 \end{pmatrix}^T$`, false, false},
		{"power not evaluated", `$\begin{pmatrix} 7 & 10 \\ 15 & 22 \end{pmatrix}$`, `$\begin{pmatrix} 1 & 2 \\ 3 & 4 \end{pmatrix}^2$`, false, false},
		{"one entry differs", `$\begin{pmatrix}1 & 2 \\ 3 & 4\end{pmatrix}$`, `$\begin{pmatrix}1 & 2 \\ 3 & 5\end{pmatrix}$`, false, false},
		{"row vs column", `$\begin{pmatrix} 1 & 2 \end{pmatrix}$`, `$\begin{pmatrix} 1 \\ 2 \end{pmatrix}$`, false, false},
		{"vector vs tuple", `$\begin{pmatrix} 1 \\ 2 \end{pmatrix}$`, `$(1,2)$`, false, false},
		{"trailing row break", `$\begin{pmatrix} 1 & 2 \\ 3 & 4 \end{pmatrix}$`, `$\begin{pmatrix} 1 & 2 \\ 3 & 4 \\ \end{pmatrix}$`, false, true},
		{"determinant", `$-2$`, `$\begin{vmatrix} 1 & 2 \\ 3 & 4 \end{vmatrix}$`, false, true},
		{"matrix in parentheses", `$(\begin{pmatrix}\frac{1}{3}\\ \frac{1}{5} \end{pmatrix})$`, `$\begin{pmatrix}\frac{2}{6}\\0.2 \end{pmatrix}$`, false, true},
		// units in styled text
		{"textbf unit", `$1/3$`, `$\frac{1}{3} \textbf{meters}$`, false, true},
		{"textnormal unit", `$125$ miles`, `The distance is $\boxed{125\textnormal{ miles}}.$`, false, true},
		{"textit unit", `$5$`, `$5\textit{ cm}$`, false, true},
		{"mathrm unit", `$5$`, `$5 \mathrm{cm}$`, false, true},
		{"unit with a power", `$5$`, `$5\textrm{ kg}^2$`, false, true},
		{"unit on a wrong number", `$5$`, `$6\textbf{ apples}$`, false, false},
		// approximations
		{"x approx", `$11$`, `$x\approx11$`, false, true},
		{"x approx decimal", `$11$`, `$x \approx 11.0$`, false, true},
		{"gold x approx", `$x \approx 11$`, `$11$`, false, true},
		{"value approx keeps the value", `$1/3$`, `$1/3 \approx 0.33$`, false, true},
		{"value approx is not the decimal", `$0.33$`, `$1/3 \approx 0.33$`, false, false},
		{"pi approx", `$3.14$`, `$\pi \approx 3.14$`, false, false},
		// named tuples
		{"named pair", `$(p,q)=(3,2)$`, `$(3,2)$`, false, true},
		{"named triple", `$(a,b,c)=(1,2,3)$`, `$(1,2,3)$`, false, true},
		{"named pair boxed", `$(p,q)=(3,2)$`, `$\boxed{(3, 2)}$`, false, true},
		{"named pair swapped", `$(p,q)=(3,2)$`, `$(2,3)$`, false, false},
		{"named pair vs assignments", `$(a,b)=(1,2)$`, `$a=1,b=2$`, false, true},
		{"named list", `$(5, 8), (8, 5)$`, `$(x,y) = (5, 8), (8, 5)$`, false, true},
		{"abs left side", `$|AB|=5$`, `$5$`, false, true},
		{"function left side", `$\sin x = 1/2$`, `$1/2$`, false, true},
		// relations against sets
		{"abs band", `$1\leq|z|\leq \frac{3}{2}$`, `$z \in \left[-\frac{3}{2}, -1\right] \cup \left[1, \frac{3}{2}\right]$`, false, true},
		{"abs band, asr", `$1\leq|z|\leq \frac{3}{2}$`, `$z \in \left[-\frac{3}{2}, -1\right] \cup \left[1, \frac{3}{2}\right]$`, true, true},
		{"set gold, relation pred, asr", `$z \in \left[-\frac{3}{2}, -1\right] \cup \left[1, \frac{3}{2}\right]$`, `$1\leq|z|\leq \frac{3}{2}$`, true, true},
		{"set gold, relation pred", `$z \in \left[-\frac{3}{2}, -1\right] \cup \left[1, \frac{3}{2}\right]$`, `$1\leq|z|\leq \frac{3}{2}$`, false, false},
		{"abs below", `$|x| < 2$`, `$(-2, 2)$`, false, true},
		{"abs above", `$|x| > 2$`, `$(-\infty,-2) \cup (2, \infty)$`, false, true},
		{"shifted abs", `$|x-1| \le 3$`, `$[-2, 4]$`, false, true},
		{"shifted abs, open", `$|x-1| \le 3$`, `$(-2, 4)$`, false, false},
		{"square", `$x^2 \ge 4$`, `$(-\infty,-2] \cup [2, \infty)$`, false, true},
		{"linear chain", `$-3 < 2x+1 \le 5$`, `$(-2, 2]$`, false, true},
		{"product", `$(x-1)(x-3) < 0$`, `$(1, 3)$`, false, true},
		{"not equal", `$x \ne 1$`, `$(-\infty, 1) \cup (1, \infty)$`, false, true},
		{"roots", `$x^2 = 4$`, `$\{-2, 2\}$`, false, true},
		{"set gold, abs pred, asr", `$(-\infty, -2) \cup (2, \infty)$`, `$|x| > 2$`, true, true},
	}
	latex := DefaultLatexTarget
	latex.BoxedPriority = 0
	cfg := ExtractConfig{Targets: []Target{latex, DefaultExprTarget}, FirstMatchFallback: true}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g, err := Parse(c.gold, cfg)
			if err != nil {
				t.Fatalf("parse gold: %v", err)
			}
			p, err := Parse(c.pred, cfg)
			if err != nil {
				t.Fatalf("parse prediction: %v", err)
			}
			opt := DefaultOptions
			opt.AllowSetRelation = c.asr
			if got, reason := Equal(g, p, opt); got != c.want {
				t.Errorf("Equal(%v, %v) = %v (%s), math-verify says %v", g, p, got, reason, c.want)
			}
		})
	}
}

// TestTimeBudget: past MaxTime the work stops with a budget error, never
// a match.
func TestTimeBudget(t *testing.T) {
	b := DefaultBudget
	b.MaxTime = time.Nanosecond
	cfg := DefaultExtractConfig
	cfg.Budget = b
	text := strings.Repeat("Some reasoning about the problem. ", 100) + `The answer is $\boxed{` + deepSum(20) + `}$`
	if _, err := Parse(text, cfg); !IsBudgetError(err) {
		t.Fatalf("Parse under a 1ns budget: err = %v, want a budget error", err)
	}
	g, err := Parse(`$(x+1)^{12}$`, DefaultExtractConfig)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Parse(`$(x+1)^{6}(1+x)^{6}$`, DefaultExtractConfig)
	if err != nil {
		t.Fatal(err)
	}
	if ok, _ := Equal(g, p, DefaultOptions); !ok {
		t.Fatal("(x+1)^12 differs from (x+1)^6 (1+x)^6 under the default budget")
	}
	opt := DefaultOptions
	opt.Budget = b
	if ok, err := EqualValues(g[0], p[0], opt); ok || !IsBudgetError(err) {
		t.Errorf("EqualValues under a 1ns budget = %v, %v; want false and a budget error", ok, err)
	}
}
