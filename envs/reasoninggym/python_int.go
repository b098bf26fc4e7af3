package reasoninggym

// Python int semantics on math/big values, shared by the arithmetic ports
// (basic_arithmetic, chain_sum, lcm).

import (
	"math/big"
)

var (
	bigOne = big.NewInt(1)
	bigTen = big.NewInt(10)
)

// pow10 returns 10**n for n >= 0.
func pow10(n int) *big.Int {
	return new(big.Int).Exp(bigTen, big.NewInt(int64(n)), nil)
}

// metadataInt is the metadata value of a Python int: an int64 when it
// fits, else the *big.Int itself (which encodes to a JSON number).
func metadataInt(x *big.Int) any {
	if x.IsInt64() {
		return x.Int64()
	}
	return new(big.Int).Set(x)
}

// floorDiv sets z = x // y (Python floor division); y must be nonzero.
func floorDiv(z, x, y *big.Int) *big.Int {
	var m big.Int
	z.QuoRem(x, y, &m)
	if m.Sign() != 0 && m.Sign() != y.Sign() {
		z.Sub(z, bigOne)
	}
	return z
}
