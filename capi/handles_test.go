package main

import (
	"errors"
	"strings"
	"sync"
	"testing"
)

func TestHandleTableLifecycle(t *testing.T) {
	before := liveHandles(kindTokenizer)
	ids := make([]uint64, 3*pageSize+7) // spans several pages
	for k := range ids {
		ids[k] = putHandle(kindTokenizer, k)
	}
	if got := liveHandles(kindTokenizer) - before; got != int64(len(ids)) {
		t.Fatalf("live tokenizers = %d, want %d", got, len(ids))
	}
	for k, id := range ids {
		v, err := lookup(id, kindTokenizer)
		if err != nil || v.(int) != k {
			t.Fatalf("lookup(%d) = %v, %v; want %d", id, v, err, k)
		}
	}
	tests := []struct {
		name string
		id   uint64
		kind handleKind
		want string
	}{
		{"wrong kind", ids[0], kindEpisode, "is an tokenizer, not an episode"},
		{"never issued", nextHandle.Load() + 1000, kindTokenizer, "invalid tokenizer handle"},
		{"far beyond any page", 1 << 60, kindEpisode, "invalid episode handle"},
		{"zero", 0, kindEnvironment, "invalid environment handle"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := lookup(tt.id, tt.kind)
			var he *handleError
			if !errors.As(err, &he) || !contains(err.Error(), tt.want) {
				t.Fatalf("lookup error = %v, want one with %q", err, tt.want)
			}
			if dropHandle(tt.id, tt.kind) == nil {
				t.Fatal("dropHandle succeeded")
			}
		})
	}
	for _, id := range ids {
		if err := dropHandle(id, kindTokenizer); err != nil {
			t.Fatal(err)
		}
		if dropHandle(id, kindTokenizer) == nil {
			t.Fatalf("handle %d dropped twice", id)
		}
		if _, err := lookup(id, kindTokenizer); err == nil {
			t.Fatalf("handle %d found after drop", id)
		}
	}
	if got := liveHandles(kindTokenizer); got != before {
		t.Fatalf("live tokenizers = %d after dropping all, want %d", got, before)
	}
	// Full pages whose ids are all dropped are released.
	for _, id := range ids[pageSize : 2*pageSize] {
		if p := id >> pageBits; table.page(p) != nil && table.page(p).stored.Load() == pageSize {
			t.Fatalf("page %d is full and empty but still held", p)
		}
	}
	// Ids are never reused.
	if id := putHandle(kindTokenizer, -1); id <= ids[len(ids)-1] {
		t.Fatalf("new id %d reuses an old one", id)
	} else if err := dropHandle(id, kindTokenizer); err != nil {
		t.Fatal(err)
	}
}

func TestHandleTableConcurrent(t *testing.T) {
	before := liveHandles(kindTokenizer)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for k := 0; k < 3000; k++ {
				id := putHandle(kindTokenizer, g*10000+k)
				v, err := lookup(id, kindTokenizer)
				if err == nil && v.(int) != g*10000+k {
					err = errors.New("lookup returned another goroutine's value")
				}
				if err == nil {
					err = dropHandle(id, kindTokenizer)
				}
				if err != nil {
					errs <- err
					return
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if got := liveHandles(kindTokenizer); got != before {
		t.Fatalf("live tokenizers = %d, want %d", got, before)
	}
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }
