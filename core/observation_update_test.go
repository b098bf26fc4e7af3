package core

import (
	"reflect"
	"testing"
)

func TestLastObservationTell(t *testing.T) {
	task, state := &Content{Text: "task"}, &Content{Text: "s"}
	tools := []ToolDefinition{{Name: "calculator"}}
	calls := []ToolCall{{ID: "c", Name: "calculator"}}
	u := Message{Role: "user", Content: "q"}
	a := Message{Role: "assistant", Content: "a", ToolCalls: calls}
	first := Observation{Prompt: "q", Messages: []Message{u}, Task: task, State: state, AvailableTools: tools}
	var m lastObservation
	m.remember(&first)
	v1 := m.version
	tests := []struct {
		name          string
		obs           *Observation
		callerVersion uint64 // v1 stands for the version the lastObservation holds at that point
		wantKeep      int
		wantNew       int
		wantSame      [3]bool // task, state, tools
		advances      bool
	}{
		{"no observation", nil, v1, 0, 0, [3]bool{}, false},
		{"appended, caller version current", &Observation{Messages: []Message{u, a, {Role: "tool", Content: "84"}}, Task: task,
			State: state, AvailableTools: tools}, v1, 1, 2, [3]bool{true, true, true}, true},
		{"rewritten tail, caller version current", &Observation{Messages: []Message{u, {Role: "user", Content: "z"}},
			Task: &Content{Text: "task"}}, v1, 1, 1, [3]bool{false, false, false}, true},
		{"unknown version: everything", &Observation{Messages: []Message{u}, Task: task}, 999, 0, 1, [3]bool{}, true},
		{"zero version: everything", &Observation{Messages: []Message{u}, Task: task}, 0, 0, 1, [3]bool{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := m.version
			callerVersion := tt.callerVersion
			if callerVersion == v1 {
				callerVersion = before // the version the caller holds now
			}
			got := m.tell(tt.obs, callerVersion)
			if !tt.advances {
				if got.Version != 0 || m.version != before {
					t.Fatalf("told %+v, version %d -> %d", got, before, m.version)
				}
				return
			}
			if got.Version != before+1 || got.Keep != tt.wantKeep || len(got.New) != tt.wantNew ||
				[3]bool{got.SameTask, got.SameState, got.SameTools} != tt.wantSame {
				t.Fatalf("told %+v", got)
			}
			if !reflect.DeepEqual(append(append([]Message(nil), m.msgs[:got.Keep]...), got.New...), tt.obs.Messages) {
				t.Fatal("keep + new is not the observation's messages")
			}
		})
	}
}

func TestSameMessage(t *testing.T) {
	calls := []ToolCall{{ID: "c", Name: "calculator"}}
	other := []ToolCall{{ID: "c", Name: "calculator"}}
	base := Message{Role: "assistant", Content: "x", ToolCalls: calls}
	tests := []struct {
		name string
		b    Message
		want bool
	}{
		{"same", base, true},
		{"equal content, another string", Message{Role: "assist" + "ant", Content: string([]byte("x")), ToolCalls: calls}, true},
		{"content", Message{Role: "assistant", Content: "y", ToolCalls: calls}, false},
		{"tool calls, another slice", Message{Role: "assistant", Content: "x", ToolCalls: other}, false},
		{"no tool calls", Message{Role: "assistant", Content: "x"}, false},
		{"tool call id", Message{Role: "assistant", Content: "x", ToolCalls: calls, ToolCallID: "1"}, false},
		{"name", Message{Role: "assistant", Content: "x", ToolCalls: calls, Name: "n"}, false},
	}
	for _, tt := range tests {
		if got := sameMessage(&base, &tt.b); got != tt.want {
			t.Errorf("%s: sameMessage = %v, want %v", tt.name, got, tt.want)
		}
	}
}
