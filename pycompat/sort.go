package pycompat

// CPython 3.11's list.sort (timsort with powersort merge policy) over
// float64 values compared with <, so that results agree with Python's
// sorted() element for element even when NaNs make the order inconsistent.
// Without NaNs any stable sort gives the same permutation; with them only
// the exact algorithm does.

const minGallop = 7

type sortRun struct{ base, n, power int }

type floatSorter struct {
	keys      []int // element ids, permuted in place
	vals      []float64
	minGallop int
	pending   []sortRun
	tmp       []int
}

func (s *floatSorter) lt(x, y int) bool { return s.vals[x] < s.vals[y] }

// SortedIndices returns the order in which sorted(vals, reverse=reverse)
// lists the elements of vals, as indices into vals.
func SortedIndices(vals []float64, reverse bool) []int {
	n := len(vals)
	keys := make([]int, n)
	for i := range keys {
		keys[i] = i
	}
	if n < 2 {
		return keys
	}
	if reverse {
		reverseInts(keys)
	}
	s := &floatSorter{keys: keys, vals: vals, minGallop: minGallop}
	s.sort()
	if reverse {
		reverseInts(keys)
	}
	return keys
}

func reverseInts(a []int) {
	for i, j := 0, len(a)-1; i < j; i, j = i+1, j-1 {
		a[i], a[j] = a[j], a[i]
	}
}

func (s *floatSorter) sort() {
	n := len(s.keys)
	minrun := minRun(n)
	lo, remaining := 0, n
	for remaining > 0 {
		run, desc := s.countRun(lo, lo+remaining)
		if desc {
			reverseInts(s.keys[lo : lo+run])
		}
		if run < minrun {
			force := min(remaining, minrun)
			s.binarySort(lo, lo+force, lo+run)
			run = force
		}
		s.foundNewRun(run)
		s.pending = append(s.pending, sortRun{base: lo, n: run})
		lo += run
		remaining -= run
	}
	for len(s.pending) > 1 {
		k := len(s.pending) - 2
		if k > 0 && s.pending[k-1].n < s.pending[k+1].n {
			k--
		}
		s.mergeAt(k)
	}
}

func minRun(n int) int {
	r := 0
	for n >= 64 {
		r |= n & 1
		n >>= 1
	}
	return n + r
}

// binarySort sorts keys[lo:hi] by binary insertion, keys[lo:start] being
// sorted already.
func (s *floatSorter) binarySort(lo, hi, start int) {
	k := s.keys
	if lo == start {
		start++
	}
	for ; start < hi; start++ {
		l, r := lo, start
		pivot := k[r]
		for l < r {
			p := l + (r-l)>>1
			if s.lt(pivot, k[p]) {
				r = p
			} else {
				l = p + 1
			}
		}
		copy(k[l+1:start+1], k[l:start])
		k[l] = pivot
	}
}

// countRun is the length of the run starting at lo (non-descending, or
// strictly descending when desc).
func (s *floatSorter) countRun(lo, hi int) (int, bool) {
	k := s.keys
	if lo+1 == hi {
		return 1, false
	}
	n := 2
	if s.lt(k[lo+1], k[lo]) {
		for i := lo + 2; i < hi; i++ {
			if !s.lt(k[i], k[i-1]) {
				break
			}
			n++
		}
		return n, true
	}
	for i := lo + 2; i < hi; i++ {
		if s.lt(k[i], k[i-1]) {
			break
		}
		n++
	}
	return n, false
}

// gallopLeft returns k in [0, n] with a[k-1] < key <= a[k], searching
// outward from hint.
func (s *floatSorter) gallopLeft(key int, a []int, n, hint int) int {
	lastofs, ofs := 0, 1
	if s.lt(a[hint], key) {
		maxofs := n - hint
		for ofs < maxofs {
			if s.lt(a[hint+ofs], key) {
				lastofs = ofs
				ofs = ofs<<1 + 1
			} else {
				break
			}
		}
		if ofs > maxofs {
			ofs = maxofs
		}
		lastofs += hint
		ofs += hint
	} else {
		maxofs := hint + 1
		for ofs < maxofs {
			if s.lt(a[hint-ofs], key) {
				break
			}
			lastofs = ofs
			ofs = ofs<<1 + 1
		}
		if ofs > maxofs {
			ofs = maxofs
		}
		lastofs, ofs = hint-ofs, hint-lastofs
	}
	lastofs++
	for lastofs < ofs {
		m := lastofs + (ofs-lastofs)>>1
		if s.lt(a[m], key) {
			lastofs = m + 1
		} else {
			ofs = m
		}
	}
	return ofs
}

// gallopRight returns k in [0, n] with a[k-1] <= key < a[k], searching
// outward from hint.
func (s *floatSorter) gallopRight(key int, a []int, n, hint int) int {
	lastofs, ofs := 0, 1
	if s.lt(key, a[hint]) {
		maxofs := hint + 1
		for ofs < maxofs {
			if s.lt(key, a[hint-ofs]) {
				lastofs = ofs
				ofs = ofs<<1 + 1
			} else {
				break
			}
		}
		if ofs > maxofs {
			ofs = maxofs
		}
		lastofs, ofs = hint-ofs, hint-lastofs
	} else {
		maxofs := n - hint
		for ofs < maxofs {
			if s.lt(key, a[hint+ofs]) {
				break
			}
			lastofs = ofs
			ofs = ofs<<1 + 1
		}
		if ofs > maxofs {
			ofs = maxofs
		}
		lastofs += hint
		ofs += hint
	}
	lastofs++
	for lastofs < ofs {
		m := lastofs + (ofs-lastofs)>>1
		if s.lt(key, a[m]) {
			ofs = m
		} else {
			lastofs = m + 1
		}
	}
	return ofs
}

// mergeAt merges pending runs i and i+1.
func (s *floatSorter) mergeAt(i int) {
	k := s.keys
	pa, na := s.pending[i].base, s.pending[i].n
	pb, nb := s.pending[i+1].base, s.pending[i+1].n
	s.pending[i].n = na + nb
	if i == len(s.pending)-3 {
		s.pending[i+1] = s.pending[i+2]
	}
	s.pending = s.pending[:len(s.pending)-1]

	g := s.gallopRight(k[pb], k[pa:pa+na], na, 0)
	pa += g
	na -= g
	if na == 0 {
		return
	}
	nb = s.gallopLeft(k[pa+na-1], k[pb:pb+nb], nb, nb-1)
	if nb <= 0 {
		return
	}
	if na <= nb {
		s.mergeLo(pa, na, pb, nb)
	} else {
		s.mergeHi(pa, na, pb, nb)
	}
}

func (s *floatSorter) mergeLo(pa, na, pb, nb int) {
	k := s.keys
	s.tmp = append(s.tmp[:0], k[pa:pa+na]...)
	t := s.tmp
	dest, a, b := pa, 0, pb
	k[dest] = k[b]
	dest++
	b++
	nb--
	if nb == 0 {
		goto succeed
	}
	if na == 1 {
		goto copyB
	}
	{
		minGallop := s.minGallop
		for {
			acount, bcount := 0, 0
			for {
				if s.lt(k[b], t[a]) {
					k[dest] = k[b]
					dest++
					b++
					bcount++
					acount = 0
					nb--
					if nb == 0 {
						goto succeed
					}
					if bcount >= minGallop {
						break
					}
				} else {
					k[dest] = t[a]
					dest++
					a++
					acount++
					bcount = 0
					na--
					if na == 1 {
						goto copyB
					}
					if acount >= minGallop {
						break
					}
				}
			}
			minGallop++
			for {
				if minGallop > 1 {
					minGallop--
				}
				s.minGallop = minGallop
				g := s.gallopRight(k[b], t[a:a+na], na, 0)
				acount = g
				if g != 0 {
					copy(k[dest:dest+g], t[a:a+g])
					dest += g
					a += g
					na -= g
					if na == 1 {
						goto copyB
					}
					if na == 0 {
						goto succeed
					}
				}
				k[dest] = k[b]
				dest++
				b++
				nb--
				if nb == 0 {
					goto succeed
				}
				g = s.gallopLeft(t[a], k[b:b+nb], nb, 0)
				bcount = g
				if g != 0 {
					copy(k[dest:dest+g], k[b:b+g])
					dest += g
					b += g
					nb -= g
					if nb == 0 {
						goto succeed
					}
				}
				k[dest] = t[a]
				dest++
				a++
				na--
				if na == 1 {
					goto copyB
				}
				if acount < minGallop && bcount < minGallop {
					break
				}
			}
			minGallop++
			s.minGallop = minGallop
		}
	}
succeed:
	if na > 0 {
		copy(k[dest:dest+na], t[a:a+na])
	}
	return
copyB:
	copy(k[dest:dest+nb], k[b:b+nb])
	k[dest+nb] = t[a]
}

func (s *floatSorter) mergeHi(pa, na, pb, nb int) {
	k := s.keys
	s.tmp = append(s.tmp[:0], k[pb:pb+nb]...)
	t := s.tmp
	basea := pa
	dest := pb + nb - 1
	b := nb - 1
	a := pa + na - 1
	k[dest] = k[a]
	dest--
	a--
	na--
	if na == 0 {
		goto succeed
	}
	if nb == 1 {
		goto copyA
	}
	{
		minGallop := s.minGallop
		for {
			acount, bcount := 0, 0
			for {
				if s.lt(t[b], k[a]) {
					k[dest] = k[a]
					dest--
					a--
					acount++
					bcount = 0
					na--
					if na == 0 {
						goto succeed
					}
					if acount >= minGallop {
						break
					}
				} else {
					k[dest] = t[b]
					dest--
					b--
					bcount++
					acount = 0
					nb--
					if nb == 1 {
						goto copyA
					}
					if bcount >= minGallop {
						break
					}
				}
			}
			minGallop++
			for {
				if minGallop > 1 {
					minGallop--
				}
				s.minGallop = minGallop
				g := na - s.gallopRight(t[b], k[basea:basea+na], na, na-1)
				acount = g
				if g != 0 {
					dest -= g
					a -= g
					copy(k[dest+1:dest+1+g], k[a+1:a+1+g])
					na -= g
					if na == 0 {
						goto succeed
					}
				}
				k[dest] = t[b]
				dest--
				b--
				nb--
				if nb == 1 {
					goto copyA
				}
				g = nb - s.gallopLeft(k[a], t[:nb], nb, nb-1)
				bcount = g
				if g != 0 {
					dest -= g
					b -= g
					copy(k[dest+1:dest+1+g], t[b+1:b+1+g])
					nb -= g
					if nb == 1 {
						goto copyA
					}
					if nb == 0 {
						goto succeed
					}
				}
				k[dest] = k[a]
				dest--
				a--
				na--
				if na == 0 {
					goto succeed
				}
				if acount < minGallop && bcount < minGallop {
					break
				}
			}
			minGallop++
			s.minGallop = minGallop
		}
	}
succeed:
	if nb > 0 {
		copy(k[dest-(nb-1):dest+1], t[:nb])
	}
	return
copyA:
	copy(k[dest+1-na:dest+1], k[a+1-na:a+1])
	dest -= na
	a -= na
	k[dest] = t[b]
}

// foundNewRun applies the powersort policy before a run of length n2 is
// pushed: merge pending runs whose power exceeds the new boundary's.
func (s *floatSorter) foundNewRun(n2 int) {
	if len(s.pending) == 0 {
		return
	}
	top := s.pending[len(s.pending)-1]
	power := powerLoop(top.base, top.n, n2, len(s.keys))
	for len(s.pending) > 1 && s.pending[len(s.pending)-2].power > power {
		s.mergeAt(len(s.pending) - 2)
	}
	s.pending[len(s.pending)-1].power = power
}

func powerLoop(s1, n1, n2, n int) int {
	result := 0
	a := 2*s1 + n1
	b := a + n1 + n2
	for {
		result++
		if a >= n {
			a -= n
			b -= n
		} else if b >= n {
			break
		}
		a <<= 1
		b <<= 1
	}
	return result
}
