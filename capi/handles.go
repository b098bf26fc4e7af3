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
	// kindStepDetails is the details of one step (core.StepDetails), read
	// once or closed.
	kindStepDetails handleKind = 4
	// kindServer (serve.go) is declared beside the server code.
)

func (k handleKind) String() string {
	switch k {
	case kindEnvironment:
		return "environment"
	case kindEpisode:
		return "episode"
	case kindTokenizer:
		return "tokenizer"
	case kindStepDetails:
		return "step details"
	case kindServer:
		return "server"
	}
	return fmt.Sprintf("kind %d", int32(k))
}

// Handles map ids to live Go objects of every kind. Ids are never reused,
// so a stale id is an error rather than a different object. They are
// issued in order, so the table is an array of pages of slots indexed by
// id: a lookup is a few loads, with neighbouring ids (a batch of episodes)
// in neighbouring slots. A page is released once all its ids have been
// issued and dropped.
var (
	nextHandle atomic.Uint64
	liveCount  [6]atomic.Int64 // by kind; index 0 is the total
	table      handleTable
)

type handleEntry struct {
	kind handleKind
	v    any
}

const (
	pageBits = 10
	pageSize = 1 << pageBits
)

type handlePage struct {
	slots  [pageSize]atomic.Pointer[handleEntry]
	live   atomic.Int64 // slots of the page in use
	stored atomic.Int64 // slots filled so far: pageSize once every id of the page was put
}

// handleTable is the array of pages; pages is replaced, never modified in
// place, so readers load it without a lock.
type handleTable struct {
	mu    sync.Mutex // serialises growing and releasing pages
	pages atomic.Pointer[[]*handlePage]
}

func (t *handleTable) page(p uint64) *handlePage {
	ps := t.pages.Load()
	if ps == nil || p >= uint64(len(*ps)) {
		return nil
	}
	return (*ps)[p]
}

// pageFor returns page p, making it (and growing the array) if needed.
func (t *handleTable) pageFor(p uint64) *handlePage {
	if pg := t.page(p); pg != nil {
		return pg
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	var old []*handlePage
	if ps := t.pages.Load(); ps != nil {
		old = *ps
	}
	if p < uint64(len(old)) && old[p] != nil {
		return old[p]
	}
	grown := make([]*handlePage, max(uint64(len(old)), p+1))
	copy(grown, old)
	grown[p] = &handlePage{}
	t.pages.Store(&grown)
	return grown[p]
}

// release drops page p once every id of it was put and none is live (no
// put can be under way then).
func (t *handleTable) release(p uint64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	ps := t.pages.Load()
	if ps == nil || p >= uint64(len(*ps)) || (*ps)[p] == nil || (*ps)[p].live.Load() != 0 ||
		(*ps)[p].stored.Load() != pageSize {
		return
	}
	next := append([]*handlePage(nil), *ps...)
	next[p] = nil
	t.pages.Store(&next)
}

func putHandle(kind handleKind, v any) uint64 {
	id := nextHandle.Add(1)
	pg := table.pageFor(id >> pageBits)
	pg.live.Add(1)
	pg.slots[id&(pageSize-1)].Store(&handleEntry{kind, v})
	pg.stored.Add(1)
	liveCount[0].Add(1)
	liveCount[kind].Add(1)
	return id
}

func lookup(id uint64, kind handleKind) (any, error) {
	pg := table.page(id >> pageBits)
	if pg == nil {
		return nil, &handleError{id: id, want: kind}
	}
	e := pg.slots[id&(pageSize-1)].Load()
	if e == nil {
		return nil, &handleError{id: id, want: kind}
	}
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
	_, err := takeHandle(id, kind)
	return err
}

// takeHandle frees handle id, which must be of the given kind, and returns
// what it referred to; of two callers taking one handle, one gets it.
func takeHandle(id uint64, kind handleKind) (any, error) {
	pg := table.page(id >> pageBits)
	if pg == nil {
		return nil, &handleError{id: id, want: kind}
	}
	slot := &pg.slots[id&(pageSize-1)]
	e := slot.Load()
	if e == nil {
		return nil, &handleError{id: id, want: kind}
	}
	if e.kind != kind {
		return nil, &handleError{id: id, want: kind, got: e.kind}
	}
	if !slot.CompareAndSwap(e, nil) {
		return nil, &handleError{id: id, want: kind} // closed concurrently
	}
	liveCount[0].Add(-1)
	liveCount[kind].Add(-1)
	if pg.live.Add(-1) == 0 && pg.stored.Load() == pageSize {
		table.release(id >> pageBits)
	}
	return e.v, nil
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
