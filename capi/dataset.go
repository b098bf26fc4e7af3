package main

/*
#include <stdint.h>
#include <stddef.h>
*/
import "C"

import (
	"fmt"
	"unsafe"

	"github.com/llenvs/llenvs-go/core"
	"github.com/llenvs/llenvs-go/envs/dataset"
	"github.com/llenvs/llenvs-go/strictcfg"
)

// llenvsgo_env_new_columns builds a question/answer environment (the
// huggingface adapter, envs/dataset) from its configuration and its rows,
// given as nCols Arrow string columns of `rows` rows each. Column k is
// described by its value offsets (int32 when widths[k] is 4, int64 when 8;
// rows+1 of them from entry starts[k]), its UTF-8 data (dataLens[k] bytes)
// and its validity bitmap (nil when no cell is missing; bit starts[k]+i is
// row i). params.columns in the configuration names the columns in order.
// Everything is copied before the call returns.
//
//export llenvsgo_env_new_columns
func llenvsgo_env_new_columns(cfg *C.char, cfgLen C.size_t, nCols C.size_t, rows C.int64_t,
	offsets *unsafe.Pointer, widths *C.int32_t, starts *C.int64_t, data **C.char, dataLens *C.int64_t,
	validity **C.uint8_t, handle *C.uint64_t, out **C.char, outLen *C.size_t) (rc C.int32_t) {
	defer guard(&rc, out, outLen)
	clearOut(out, outLen)
	raw, err := decodeObject(input(cfg, cfgLen))
	if err != nil {
		return fail(err, out, outLen)
	}
	ec, err := core.DecodeEnvConfig(raw)
	if err != nil {
		return fail(err, out, outLen)
	}
	if ec.Adapter != dataset.AdapterName {
		return fail(fmt.Errorf("llenvs_env_new_columns builds %s environments, not %q", dataset.AdapterName,
			ec.Adapter), out, outLen)
	}
	var names []string
	cols := map[string]dataset.Column{}
	if listed, ok := ec.Params["columns"].([]any); ok {
		names = make([]string, len(listed))
		for k, c := range listed {
			s, isStr := c.(string)
			if !isStr {
				return fail(fmt.Errorf("params.columns[%d]: want a column name, got %s", k, strictcfg.Describe(c)),
					out, outLen)
			}
			names[k] = s
		}
	}
	n := int(nCols)
	if len(names) != n {
		return fail(fmt.Errorf("params.columns names %d columns but %d were handed over", len(names), n),
			out, outLen)
	}
	if rows < 0 {
		return fail(fmt.Errorf("rows must not be negative, got %d", rows), out, outLen)
	}
	if n > 0 {
		offs := unsafe.Slice(offsets, n)
		ws := unsafe.Slice((*int32)(unsafe.Pointer(widths)), n)
		ss := unsafe.Slice((*int64)(unsafe.Pointer(starts)), n)
		ds := unsafe.Slice(data, n)
		dls := unsafe.Slice((*int64)(unsafe.Pointer(dataLens)), n)
		vs := unsafe.Slice(validity, n)
		for k := 0; k < n; k++ {
			c, err := copyColumn(int(rows), offs[k], int(ws[k]), ss[k], unsafe.Pointer(ds[k]), dls[k],
				unsafe.Pointer(vs[k]))
			if err != nil {
				return fail(fmt.Errorf("column %q: %w", names[k], err), out, outLen)
			}
			cols[names[k]] = c
		}
	}
	env, err := dataset.New(ec, cols)
	if err != nil {
		return fail(err, out, outLen)
	}
	*handle = C.uint64_t(putHandle(kindEnvironment, env))
	return reply(describeEnv(env), out, outLen)
}

// copyColumn copies one Arrow string column (int32 or int64 offsets) into
// Go memory: the column's data as one string, each cell a substring of it.
// Offsets that are not non-decreasing or point outside the data are an
// error, never a read out of bounds.
func copyColumn(rows int, offsets unsafe.Pointer, width int, start int64, data unsafe.Pointer, dataLen int64,
	validity unsafe.Pointer) (dataset.Column, error) {
	var c dataset.Column
	if rows == 0 {
		return c, nil
	}
	if offsets == nil || start < 0 {
		return c, fmt.Errorf("no offsets")
	}
	at := make([]int64, rows+1)
	switch width {
	case 4:
		src := unsafe.Slice((*int32)(offsets), int(start)+rows+1)[start:]
		for i, v := range src {
			at[i] = int64(v)
		}
	case 8:
		copy(at, unsafe.Slice((*int64)(offsets), int(start)+rows+1)[start:])
	default:
		return c, fmt.Errorf("offset width must be 4 or 8 bytes, got %d", width)
	}
	lo, hi := at[0], at[rows]
	if lo < 0 || hi < lo || hi > dataLen {
		return c, fmt.Errorf("offsets [%d, %d) outside the %d bytes of data", lo, hi, dataLen)
	}
	var text string
	if hi > lo {
		if data == nil {
			return c, fmt.Errorf("no data")
		}
		text = string(unsafe.Slice((*byte)(data), hi)[lo:hi])
	}
	c.Values = make([]string, rows)
	for i := 0; i < rows; i++ {
		a, b := at[i]-lo, at[i+1]-lo
		if a < 0 || b < a || b > hi-lo {
			return c, fmt.Errorf("row %d: offsets %d..%d are not in order", i, at[i], at[i+1])
		}
		c.Values[i] = text[a:b]
	}
	if validity != nil {
		bits := unsafe.Slice((*byte)(validity), (int(start)+rows+7)/8)
		for i := 0; i < rows; i++ {
			bit := int(start) + i
			if bits[bit/8]&(1<<(bit%8)) == 0 {
				if c.Null == nil {
					c.Null = make([]bool, rows)
				}
				c.Null[i] = true
			}
		}
	}
	return c, nil
}
