package main

/*
#include <stdlib.h>
#include "llenvs.h"

static int32_t call_score_fn(llenvs_score_fn fn, const char *req, size_t req_len, char **out, size_t *out_len) {
	return fn(req, req_len, out, out_len);
}
*/
import "C"

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net"
	"strconv"
	"time"
	"unsafe"

	"github.com/llenvs/llenvs-go/core"
	"github.com/llenvs/llenvs-go/serving"
	"github.com/llenvs/llenvs-go/strictcfg"
)

// kindServer is a running serving.Server (LLENVS_KIND_SERVER).
const kindServer handleKind = 5

// liveServer is what a server handle holds: the server and the end of its
// Serve loop.
type liveServer struct {
	srv  *serving.Server
	ln   net.Listener
	done chan error
}

type serveEnvSpec struct {
	Name        string   `json:"name"`
	Reference   string   `json:"reference"`
	Environment *int64   `json:"environment"`
	Callback    *int64   `json:"callback"`
	Signals     []string `json:"signals"`
	Size        *int64   `json:"size"`
}

type serveLimitsSpec struct {
	Concurrency       int     `json:"concurrency"`
	Queue             int     `json:"queue"`
	MaxBodyBytes      int64   `json:"max_body_bytes"`
	MaxItems          int     `json:"max_items"`
	RequestTimeout    float64 `json:"request_timeout"`
	ReadHeaderTimeout float64 `json:"read_header_timeout"`
	ReadTimeout       float64 `json:"read_timeout"`
	IdleTimeout       float64 `json:"idle_timeout"`
	RetryAfter        float64 `json:"retry_after"`
}

type serveSpec struct {
	Environments []any          `json:"environments"`
	Labels       string         `json:"labels"`
	Host         string         `json:"host"`
	Port         int            `json:"port"`
	Token        string         `json:"token"`
	Limits       map[string]any `json:"limits"`
}

// seconds converts a limit given in seconds (0: the default).
func seconds(name string, s float64) (time.Duration, error) {
	if math.IsNaN(s) || s < 0 || s > 1e6 {
		return 0, fmt.Errorf("serve: limit %q must be from 0 (the default) to 1e6 seconds, got %v", name, s)
	}
	return time.Duration(s * float64(time.Second)), nil
}

func (l serveLimitsSpec) limits() (serving.Limits, error) {
	out := serving.Limits{Concurrency: l.Concurrency, Queue: l.Queue, MaxBodyBytes: l.MaxBodyBytes, MaxItems: l.MaxItems}
	for name, v := range map[string]int64{"concurrency": int64(l.Concurrency), "queue": int64(l.Queue),
		"max_body_bytes": l.MaxBodyBytes, "max_items": int64(l.MaxItems)} {
		if v < 0 {
			return out, fmt.Errorf("serve: limit %q must be 0 (the default) or positive, got %d", name, v)
		}
	}
	var err error
	for _, f := range []struct {
		name string
		s    float64
		dst  *time.Duration
	}{{"request_timeout", l.RequestTimeout, &out.RequestTimeout}, {"read_header_timeout", l.ReadHeaderTimeout, &out.ReadHeaderTimeout},
		{"read_timeout", l.ReadTimeout, &out.ReadTimeout}, {"idle_timeout", l.IdleTimeout, &out.IdleTimeout},
		{"retry_after", l.RetryAfter, &out.RetryAfter}} {
		if *f.dst, err = seconds(f.name, f.s); err != nil {
			return out, err
		}
	}
	return out, nil
}

// startServer is llenvs_serve_start: it builds the served environments,
// listens and serves in the background.
func startServer(req []byte, fn C.llenvs_score_fn) (*liveServer, map[string]any, error) {
	raw, err := decodeObject(req)
	if err != nil {
		return nil, nil, fmt.Errorf("serve config: %w", err)
	}
	spec := serveSpec{Host: "127.0.0.1"}
	if err := strictcfg.Decode("serve config", raw, &spec); err != nil {
		return nil, nil, err
	}
	var ls serveLimitsSpec
	if spec.Limits != nil {
		if err := strictcfg.Decode("serve limits", spec.Limits, &ls); err != nil {
			return nil, nil, err
		}
	}
	limits, err := ls.limits()
	if err != nil {
		return nil, nil, err
	}
	if spec.Port < 0 || spec.Port > 65535 {
		return nil, nil, fmt.Errorf("serve: port must be from 0 (any free port) to 65535, got %d", spec.Port)
	}
	cfg := serving.Config{Labels: serving.LabelRule(spec.Labels), Limits: limits, Token: spec.Token}
	for i, item := range spec.Environments {
		m, ok := item.(map[string]any)
		if !ok {
			return nil, nil, fmt.Errorf("serve: environments[%d] must be an object, got %s", i, strictcfg.Describe(item))
		}
		var es serveEnvSpec
		if err := strictcfg.Decode(fmt.Sprintf("serve environments[%d]", i), m, &es); err != nil {
			return nil, nil, err
		}
		e, err := servedEnvironment(es, fn)
		if err != nil {
			return nil, nil, fmt.Errorf("serve: environments[%d] (%q): %w", i, es.Name, err)
		}
		cfg.Environments = append(cfg.Environments, e)
	}
	srv, err := serving.New(cfg)
	if err != nil {
		return nil, nil, err
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(spec.Host, strconv.Itoa(spec.Port)))
	if err != nil {
		return nil, nil, fmt.Errorf("serve: cannot listen on %s: %w", net.JoinHostPort(spec.Host, strconv.Itoa(spec.Port)), err)
	}
	live := &liveServer{srv: srv, ln: ln, done: make(chan error, 1)}
	go func() { live.done <- srv.Serve(ln) }()
	l := srv.Limits()
	return live, map[string]any{"address": ln.Addr().String(), "limits": map[string]any{
		"concurrency": l.Concurrency, "queue": l.Queue, "max_body_bytes": l.MaxBodyBytes, "max_items": l.MaxItems,
		"request_timeout": l.RequestTimeout.Seconds(), "read_header_timeout": l.ReadHeaderTimeout.Seconds(),
		"read_timeout": l.ReadTimeout.Seconds(), "idle_timeout": l.IdleTimeout.Seconds(), "retry_after": l.RetryAfter.Seconds(),
	}}, nil
}

func servedEnvironment(es serveEnvSpec, fn C.llenvs_score_fn) (serving.Environment, error) {
	e := serving.Environment{Name: es.Name, Reference: es.Reference}
	switch {
	case (es.Environment == nil) == (es.Callback == nil):
		return e, errors.New(`give exactly one of "environment" (a handle) and "callback"`)
	case es.Environment != nil:
		env, err := getEnv(uint64(*es.Environment))
		if err != nil {
			return e, err
		}
		st, ok := env.(core.SingleTurn)
		if !ok {
			return e, fmt.Errorf("environment %q is multi-turn; only single-turn environments are served", env.Spec().Name)
		}
		e.Scorer = serving.EnvScorer(st)
	default:
		if fn == nil {
			return e, errors.New("a callback environment needs the score function (llenvs_serve_start's score_fn)")
		}
		if es.Size == nil || *es.Size < 0 {
			return e, errors.New(`a callback environment needs "size", its number of tasks`)
		}
		e.Scorer = &callbackScorer{fn: fn, id: *es.Callback, signals: es.Signals, size: *es.Size}
	}
	return e, nil
}

// callbackScorer scores through the caller's llenvs_score_fn (a Python
// environment: each call takes the GIL).
type callbackScorer struct {
	fn      C.llenvs_score_fn
	id      int64
	signals []string
	size    int64
}

func (c *callbackScorer) Signals() []string { return c.signals }

func (c *callbackScorer) Check(i int) error {
	if i < 0 || int64(i) >= c.size {
		return &core.IndexError{Index: i, Len: int(c.size)}
	}
	return nil
}

// call sends one JSON request through the callback and decodes its reply.
func (c *callbackScorer) call(req map[string]any, reply any) (err error) {
	req["callback"] = c.id
	b, err := json.Marshal(req)
	if err != nil {
		return err
	}
	cb := C.CBytes(b)
	defer C.free(cb)
	var out *C.char
	var n C.size_t
	rc := C.call_score_fn(c.fn, (*C.char)(cb), C.size_t(len(b)), &out, &n)
	var data []byte
	if out != nil {
		data = C.GoBytes(unsafe.Pointer(out), C.int(n))
		C.free(unsafe.Pointer(out))
	}
	if rc != 0 {
		return fmt.Errorf("the environment's scorer failed: %s", shortReply(data))
	}
	if err := json.Unmarshal(data, reply); err != nil {
		return fmt.Errorf("the environment's scorer replied with bad JSON: %w", err)
	}
	return nil
}

func shortReply(b []byte) string {
	if len(b) > 500 {
		return string(b[:500]) + "..."
	}
	if len(b) == 0 {
		return "no message"
	}
	return string(b)
}

type callbackReply struct {
	Totals   []float64   `json:"totals"`
	Statuses []string    `json:"statuses"`
	Answers  []*string   `json:"answers"`
	Values   [][]float64 `json:"values"`
	Errors   []*string   `json:"errors"`
}

func (c *callbackScorer) Score(indices []int64, texts []string, outs []Outcome) {
	var r callbackReply
	err := c.call(map[string]any{"op": "score", "task_indices": indices, "responses": texts}, &r)
	n := len(indices)
	if err == nil && (len(r.Totals) != n || len(r.Statuses) != n || len(r.Answers) != n || len(r.Errors) != n ||
		(len(r.Values) != n && len(c.signals) > 0)) {
		err = fmt.Errorf("the environment's scorer answered lists of the wrong length for %d items", n)
	}
	for k := range outs {
		if err != nil {
			outs[k] = Outcome{Status: serving.StatusError, Error: err.Error()}
			continue
		}
		o := Outcome{Total: r.Totals[k], Status: statusNamed(r.Statuses[k])}
		if a := r.Answers[k]; a != nil {
			o.Answer, o.Found = *a, true
		}
		if e := r.Errors[k]; e != nil {
			o.Error = *e
		}
		if len(c.signals) > 0 {
			o.Values = r.Values[k]
		}
		outs[k] = o
	}
}

func (c *callbackScorer) Truth(i int) (string, bool, error) {
	var r struct {
		Truths []*string `json:"truths"`
	}
	if err := c.call(map[string]any{"op": "truths", "task_indices": []int{i}}, &r); err != nil {
		return "", false, err
	}
	if len(r.Truths) != 1 {
		return "", false, errors.New("the environment's scorer answered no truth")
	}
	if r.Truths[0] == nil {
		return "", false, nil
	}
	return *r.Truths[0], true, nil
}

// Outcome is serving's scored item.
type Outcome = serving.Outcome

//export llenvsgo_serve_start
func llenvsgo_serve_start(cfg *C.char, cfgLen C.size_t, fn C.llenvs_score_fn, server *C.uint64_t, out **C.char, outLen *C.size_t) (rc C.int32_t) {
	defer guard(&rc, out, outLen)
	clearOut(out, outLen)
	if server == nil {
		return fail(errors.New("llenvs_serve_start: server is NULL"), out, outLen)
	}
	live, desc, err := startServer(input(cfg, cfgLen), fn)
	if err != nil {
		return fail(err, out, outLen)
	}
	*server = C.uint64_t(putHandle(kindServer, live))
	return reply(desc, out, outLen)
}

//export llenvsgo_serve_stop
func llenvsgo_serve_stop(h C.uint64_t, timeout C.double, out **C.char, outLen *C.size_t) (rc C.int32_t) {
	defer guard(&rc, out, outLen)
	clearOut(out, outLen)
	v, err := takeHandle(uint64(h), kindServer)
	if err != nil {
		return fail(err, out, outLen)
	}
	live := v.(*liveServer)
	wait, err := seconds("timeout", float64(timeout))
	if err != nil {
		wait = 30 * time.Second
	}
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	drained := live.srv.Shutdown(ctx) == nil
	if !drained {
		live.srv.Close()
	}
	<-live.done
	return reply(map[string]any{"drained": drained}, out, outLen)
}

// statusNamed is the Status a callback names; an unknown name is an error.
func statusNamed(name string) serving.Status {
	for _, s := range []serving.Status{serving.StatusCorrect, serving.StatusIncorrect, serving.StatusNoAnswer, serving.StatusTimeout} {
		if s.String() == name {
			return s
		}
	}
	return serving.StatusError
}
