package main

/*
#include "llenvs.h"
*/
import "C"

import (
	"context"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/llenvs/llenvs-go/sandbox"
	"github.com/llenvs/llenvs-go/strictcfg"
)

// codeRunSpec is the JSON spec of llenvs_code_run: how to run every program
// of the batch. Sizes are in bytes, times in seconds; zero means the default.
type codeRunSpec struct {
	Interpreter string  `json:"interpreter"`
	Isolation   string  `json:"isolation"`
	Concurrency int     `json:"concurrency"`
	Mode        string  `json:"mode"`
	Timeout     float64 `json:"timeout"`
	CPUTime     float64 `json:"cpu_time"`
	Memory      int64   `json:"memory"`
	Tmpfs       int64   `json:"tmpfs"`
	Output      int     `json:"output"`
	FileSize    int64   `json:"file_size"`
	Procs       int     `json:"procs"`
	OpenFiles   int     `json:"open_files"`
}

// limits are the spec's limits over sandbox.DefaultLimits.
func (s codeRunSpec) limits() (sandbox.Limits, error) {
	l := sandbox.DefaultLimits()
	dur := func(name string, v float64, into *time.Duration) error {
		if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 || v > 3600 {
			return fmt.Errorf("code_run: %s must be from 0 to 3600 seconds, got %v", name, v)
		}
		if v > 0 {
			*into = time.Duration(v * float64(time.Second))
		}
		return nil
	}
	if err := dur("timeout", s.Timeout, &l.Wall); err != nil {
		return l, err
	}
	l.CPU = l.Wall
	if err := dur("cpu_time", s.CPUTime, &l.CPU); err != nil {
		return l, err
	}
	setInt64 := func(v int64, into *int64) {
		if v != 0 {
			*into = v
		}
	}
	setInt := func(v int, into *int) {
		if v != 0 {
			*into = v
		}
	}
	setInt64(s.Memory, &l.MemoryBytes)
	setInt64(s.Tmpfs, &l.TmpfsBytes)
	setInt64(s.FileSize, &l.FileBytes)
	setInt(s.Output, &l.OutputBytes)
	setInt(s.Procs, &l.Procs)
	setInt(s.OpenFiles, &l.OpenFiles)
	return l, l.Validate()
}

// codePoolKey names a warm pool: runs with the same interpreter, isolation
// and concurrency share one.
type codePoolKey struct {
	interpreter, isolation string
	concurrency            int
}

var (
	codePoolsMu sync.Mutex
	codePools   = map[codePoolKey]*sandbox.Pool{}
)

func codePool(s codeRunSpec) (*sandbox.Pool, error) {
	key := codePoolKey{s.Interpreter, s.Isolation, s.Concurrency}
	codePoolsMu.Lock()
	defer codePoolsMu.Unlock()
	if p, ok := codePools[key]; ok {
		return p, nil
	}
	p, err := sandbox.NewPool(sandbox.Config{Interpreter: s.Interpreter, Isolation: sandbox.Isolation(s.Isolation),
		Concurrency: s.Concurrency})
	if err != nil {
		return nil, err
	}
	codePools[key] = p
	return p, nil
}

// codeResultBatch is the record batch of llenvs_code_run, one row per
// program: status, exit_code (int64, -1 for none), signal (int64),
// stdout, stderr, stdout_truncated and stderr_truncated (uint8), wall and
// cpu (float64 seconds), verdict and reason (utf8).
func codeResultBatch(results []sandbox.Result) (*cColumn, error) {
	n := len(results)
	status, stdout, stderr := make([]string, n), make([]string, n), make([]string, n)
	verdict, reason := make([]string, n), make([]string, n)
	exitCol, exit := newFixedColumn[int64]("exit_code", formatInt64, n)
	sigCol, sig := newFixedColumn[int64]("signal", formatInt64, n)
	outTCol, outT := newFixedColumn[uint8]("stdout_truncated", formatUint8, n)
	errTCol, errT := newFixedColumn[uint8]("stderr_truncated", formatUint8, n)
	wallCol, wall := newFixedColumn[float64]("wall", formatFloat64, n)
	cpuCol, cpu := newFixedColumn[float64]("cpu", formatFloat64, n)
	for k, r := range results {
		status[k], stdout[k], stderr[k], verdict[k], reason[k] = string(r.Status), r.Stdout, r.Stderr, r.Verdict, r.Reason
		exit[k], sig[k] = int64(r.ExitCode), int64(r.Signal)
		if r.StdoutTruncated {
			outT[k] = 1
		} else {
			outT[k] = 0
		}
		if r.StderrTruncated {
			errT[k] = 1
		} else {
			errT[k] = 0
		}
		wall[k], cpu[k] = r.Wall.Seconds(), r.CPU.Seconds()
	}
	fixed := []*cColumn{exitCol, sigCol, outTCol, errTCol, wallCol, cpuCol}
	var texts []*cColumn
	for _, c := range []struct {
		name   string
		values []string
	}{{"status", status}, {"stdout", stdout}, {"stderr", stderr}, {"verdict", verdict}, {"reason", reason}} {
		col, err := stringColumnOf(c.name, c.values)
		if err != nil {
			for _, made := range append(fixed, texts...) {
				made.free()
			}
			return nil, err
		}
		texts = append(texts, col)
	}
	cols := []*cColumn{texts[0], exitCol, sigCol, texts[1], texts[2], outTCol, errTCol, wallCol, cpuCol, texts[3],
		texts[4]}
	return newStructColumn("", n, cols...), nil
}

// llenvsgo_code_run runs the n programs sources[k] (source_lens[k] bytes),
// each with stdin stdins[k] (stdin_lens[k] bytes), under the spec (JSON,
// codeRunSpec), in the sandbox's warm pool, and fills schema and array with
// codeResultBatch. Every program gets a row; an error means none ran.
//
//export llenvsgo_code_run
func llenvsgo_code_run(spec *C.char, specLen C.size_t, sources **C.char, sourceLens *C.int64_t,
	stdins **C.char, stdinLens *C.int64_t, n C.size_t, schema *C.struct_ArrowSchema, array *C.struct_ArrowArray,
	out **C.char, outLen *C.size_t) (rc C.int32_t) {
	defer guard(&rc, out, outLen)
	clearOut(out, outLen)
	if err := needBatchSlots(schema, array); err != nil {
		return fail(fmt.Errorf("code_run: %w", err), out, outLen)
	}
	raw, err := decodeObject(input(spec, specLen))
	if err != nil {
		return fail(fmt.Errorf("code_run spec: %w", err), out, outLen)
	}
	var s codeRunSpec
	if err := strictcfg.Decode("code_run spec", raw, &s); err != nil {
		return fail(err, out, outLen)
	}
	lim, err := s.limits()
	if err != nil {
		return fail(err, out, outLen)
	}
	srcs, err := textViews(sources, sourceLens, n)
	if err != nil {
		return fail(fmt.Errorf("code_run sources: %w", err), out, outLen)
	}
	ins, err := textViews(stdins, stdinLens, n)
	if err != nil {
		return fail(fmt.Errorf("code_run stdins: %w", err), out, outLen)
	}
	pool, err := codePool(s)
	if err != nil {
		return fail(err, out, outLen)
	}
	progs := make([]sandbox.Program, len(srcs))
	for k := range srcs {
		progs[k] = sandbox.Program{Source: srcs[k], Stdin: ins[k], Mode: sandbox.Mode(s.Mode), Limits: lim}
	}
	results, err := pool.RunBatch(context.Background(), progs)
	if err != nil {
		return fail(fmt.Errorf("code_run: %w", err), out, outLen)
	}
	batch, err := codeResultBatch(results)
	if err != nil {
		return fail(fmt.Errorf("code_run: %w", err), out, outLen)
	}
	exportBatch(batch, schema, array)
	return statusOK
}

// sandboxProbe answers llenvs_call "sandbox_probe".
func sandboxProbe(out **C.char, outLen *C.size_t) C.int32_t {
	return reply(sandbox.Probe(), out, outLen)
}
