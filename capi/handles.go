package main

import (
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/llenvs/llenvs-go/core"
)

// handles maps ids to live environments. Ids are never reused, so a stale
// id is an error rather than a different object.
var (
	handles    sync.Map // uint64 -> core.Environment
	nextHandle atomic.Uint64
	liveCount  atomic.Int64
)

func putHandle(env core.Environment) uint64 {
	id := nextHandle.Add(1)
	handles.Store(id, env)
	liveCount.Add(1)
	return id
}

func getHandle(id uint64) (core.Environment, error) {
	v, ok := handles.Load(id)
	if !ok {
		return nil, &handleError{id}
	}
	return v.(core.Environment), nil
}

func dropHandle(id uint64) error {
	if _, ok := handles.LoadAndDelete(id); !ok {
		return &handleError{id}
	}
	liveCount.Add(-1)
	return nil
}

type handleError struct{ id uint64 }

func (e *handleError) Error() string {
	return fmt.Sprintf("invalid environment handle %d (closed, or never created in this process)", e.id)
}
