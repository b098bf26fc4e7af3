package main

import (
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/llenvs/llenvs-go/core"
)

// handleKind tags what a handle refers to (LLENVS_KIND_* in llenvs.h).
type handleKind int32

const (
	kindEnvironment handleKind = 1
	kindEpisode     handleKind = 2
	kindTokenizer   handleKind = 3
)

func (k handleKind) String() string {
	switch k {
	case kindEnvironment:
		return "environment"
	case kindEpisode:
		return "episode"
	case kindTokenizer:
		return "tokenizer"
	}
	return fmt.Sprintf("kind %d", int32(k))
}

// handles maps ids to live Go objects of every kind. Ids are never reused,
// so a stale id is an error rather than a different object.
var (
	handles    sync.Map // uint64 -> handleEntry
	nextHandle atomic.Uint64
	liveCount  [4]atomic.Int64 // by kind; index 0 is the total
)

type handleEntry struct {
	kind handleKind
	v    any
}

func putHandle(kind handleKind, v any) uint64 {
	id := nextHandle.Add(1)
	handles.Store(id, handleEntry{kind, v})
	liveCount[0].Add(1)
	liveCount[kind].Add(1)
	return id
}

func lookup(id uint64, kind handleKind) (any, error) {
	v, ok := handles.Load(id)
	if !ok {
		return nil, &handleError{id: id, want: kind}
	}
	e := v.(handleEntry)
	if e.kind != kind {
		return nil, &handleError{id: id, want: kind, got: e.kind}
	}
	return e.v, nil
}

func getEnv(id uint64) (core.Environment, error) {
	v, err := lookup(id, kindEnvironment)
	if err != nil {
		return nil, err
	}
	return v.(core.Environment), nil
}

func getEpisode(id uint64) (*core.Run, error) {
	v, err := lookup(id, kindEpisode)
	if err != nil {
		return nil, err
	}
	return v.(*core.Run), nil
}

// dropHandle frees handle id, which must be of the given kind.
func dropHandle(id uint64, kind handleKind) error {
	if _, err := lookup(id, kind); err != nil {
		return err
	}
	if _, ok := handles.LoadAndDelete(id); !ok {
		return &handleError{id: id, want: kind} // closed concurrently
	}
	liveCount[0].Add(-1)
	liveCount[kind].Add(-1)
	return nil
}

// liveHandles counts the live handles of a kind; kind 0 counts all.
func liveHandles(kind handleKind) int64 {
	if kind < 0 || int(kind) >= len(liveCount) {
		return -1
	}
	return liveCount[kind].Load()
}

type handleError struct {
	id        uint64
	want, got handleKind
}

func (e *handleError) Error() string {
	if e.got != 0 {
		return fmt.Sprintf("handle %d is an %s, not an %s", e.id, e.got, e.want)
	}
	return fmt.Sprintf("invalid %s handle %d (closed, or never created in this process)", e.want, e.id)
}
