package main

/*
#include "llenvs.h"
*/
import "C"

import (
	"context"
	"fmt"

	"github.com/llenvs/llenvs-go/envs/codetests"
	"github.com/llenvs/llenvs-go/sandbox"
	"github.com/llenvs/llenvs-go/strictcfg"
)

// decodeSandboxSpec reads the JSON spec of a code entry point (what names
// it in errors) and the run limits it sets.
func decodeSandboxSpec(spec *C.char, specLen C.size_t, what string) (sandbox.Spec, sandbox.Limits, error) {
	var s sandbox.Spec
	raw, err := decodeObject(input(spec, specLen))
	if err != nil {
		return s, sandbox.Limits{}, fmt.Errorf("%s spec: %w", what, err)
	}
	if err := strictcfg.Decode(what+" spec", raw, &s); err != nil {
		return s, sandbox.Limits{}, err
	}
	lim, err := s.Limits()
	return s, lim, err
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
// sandbox.Spec), in the sandbox's warm pool, and fills schema and array with
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
	s, lim, err := decodeSandboxSpec(spec, specLen, "code_run")
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
	pool, err := sandbox.SharedPool(s)
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

// codeCheckBatch is the record batch of llenvs_code_check, one row per
// program: results (list of utf8: one verdict per test run), total
// (int64), score (float64), status and feedback (utf8).
func codeCheckBatch(outcomes []codetests.Outcome) (*cColumn, error) {
	n := len(outcomes)
	var verdicts []string
	status, feedback := make([]string, n), make([]string, n)
	totalCol, total := newFixedColumn[int64]("total", formatInt64, n)
	scoreCol, score := newFixedColumn[float64]("score", formatFloat64, n)
	for k, o := range outcomes {
		verdicts = append(verdicts, o.Results...)
		total[k], score[k] = int64(o.Total), o.Score()
		status[k], feedback[k] = o.Status(), validUTF8(o.Feedback())
	}
	child, err := stringColumnOf("item", verdicts)
	if err != nil {
		totalCol.free()
		scoreCol.free()
		return nil, err
	}
	list, offsets := newListColumn("results", n, child)
	offsets[0] = 0
	for k, o := range outcomes {
		offsets[k+1] = offsets[k] + int32(len(o.Results))
	}
	made := []*cColumn{list, totalCol, scoreCol}
	var texts []*cColumn
	for _, c := range []struct {
		name   string
		values []string
	}{{"status", status}, {"feedback", feedback}} {
		col, err := stringColumnOf(c.name, c.values)
		if err != nil {
			for _, m := range append(made, texts...) {
				m.free()
			}
			return nil, err
		}
		texts = append(texts, col)
	}
	return newStructColumn("", n, append(made, texts...)...), nil
}

// llenvsgo_code_check checks the n programs codes[k] against the test cases
// tests[k] (JSON text: {"inputs", "outputs", "fn_name"}, a list of asserts,
// or assert lines), under the sandbox spec (JSON, sandbox.Spec), and fills
// schema and array with codeCheckBatch. Unreadable test cases are an error
// naming the item, and then nothing runs.
//
//export llenvsgo_code_check
func llenvsgo_code_check(spec *C.char, specLen C.size_t, codes **C.char, codeLens *C.int64_t,
	tests **C.char, testLens *C.int64_t, n C.size_t, schema *C.struct_ArrowSchema, array *C.struct_ArrowArray,
	out **C.char, outLen *C.size_t) (rc C.int32_t) {
	defer guard(&rc, out, outLen)
	clearOut(out, outLen)
	if err := needBatchSlots(schema, array); err != nil {
		return fail(fmt.Errorf("code_check: %w", err), out, outLen)
	}
	s, lim, err := decodeSandboxSpec(spec, specLen, "code_check")
	if err != nil {
		return fail(err, out, outLen)
	}
	srcs, err := textViews(codes, codeLens, n)
	if err != nil {
		return fail(fmt.Errorf("code_check codes: %w", err), out, outLen)
	}
	cells, err := textViews(tests, testLens, n)
	if err != nil {
		return fail(fmt.Errorf("code_check tests: %w", err), out, outLen)
	}
	suites := make([]codetests.Suite, len(cells))
	for k, cell := range cells {
		if suites[k], err = codetests.Parse(cell, "", ""); err != nil {
			return fail(fmt.Errorf("code_check tests[%d]: %w", k, err), out, outLen)
		}
	}
	pool, err := sandbox.SharedPool(s)
	if err != nil {
		return fail(err, out, outLen)
	}
	outcomes, err := codetests.Checker{Pool: pool, Limits: lim}.CheckBatch(context.Background(), srcs, suites)
	if err != nil {
		return fail(fmt.Errorf("code_check: %w", err), out, outLen)
	}
	batch, err := codeCheckBatch(outcomes)
	if err != nil {
		return fail(fmt.Errorf("code_check: %w", err), out, outLen)
	}
	exportBatch(batch, schema, array)
	return statusOK
}
