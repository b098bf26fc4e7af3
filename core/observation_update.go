package core

// ObservationUpdate is a step's next observation as a change to the
// observation the caller already holds, so that a long conversation is not
// sent again every step.
//
// The caller and the Run each keep the last observation sent, under a
// version number. A step that names the Run's current version gets only
// what changed: how many of the previous messages stay (a prefix), the new
// messages after them, and whether the task, state and available tools are
// the same objects as before. A step naming any other version (0: none)
// gets everything (Keep 0, no Same* flags). Either way the Run then holds
// the new observation under a new version, returned in Version.
type ObservationUpdate struct {
	// Version names the observation after this step; 0 when the step
	// returned no observation (the caller's stays as it was).
	Version uint64
	// Keep is the number of messages of the previous observation that begin
	// the new one; New are the messages after them.
	Keep int
	New  []Message
	// SameTask, SameState and SameTools say that the task, the state and
	// the available tools are those of the previous observation.
	SameTask, SameState, SameTools bool
}

// lastObservation is the last observation a Run sent its caller.
type lastObservation struct {
	version uint64
	msgs    []Message
	task    *Content
	state   *Content
	tools   []ToolDefinition
}

// tell records obs as sent and returns it as an ObservationUpdate against the
// observation of version callerVersion.
func (m *lastObservation) tell(obs *Observation, callerVersion uint64) ObservationUpdate {
	if obs == nil {
		return ObservationUpdate{}
	}
	if callerVersion == 0 {
		// A caller that keeps no observation (a batch of episodes): nothing
		// is held for it, and a later step against this version is sent
		// everything again.
		m.forget()
		return ObservationUpdate{Version: m.version, New: obs.Messages}
	}
	t := ObservationUpdate{New: obs.Messages}
	if callerVersion != 0 && callerVersion == m.version {
		k := 0
		for k < len(m.msgs) && k < len(obs.Messages) && sameMessage(&m.msgs[k], &obs.Messages[k]) {
			k++
		}
		t.Keep, t.New = k, obs.Messages[k:]
		t.SameTask = obs.Task == m.task
		t.SameState = obs.State == m.state
		t.SameTools = sameTools(obs.AvailableTools, m.tools)
	}
	m.remember(obs)
	t.Version = m.version
	return t
}

// remember holds a copy of obs's messages (an episode may reuse the array
// it returned) and moves to a new version.
func (m *lastObservation) remember(obs *Observation) {
	if cap(m.msgs) < len(obs.Messages) {
		m.msgs = make([]Message, 0, 2*len(obs.Messages)+8) // room for the turns to come
	}
	m.msgs = append(m.msgs[:0], obs.Messages...)
	m.task, m.state, m.tools = obs.Task, obs.State, obs.AvailableTools
	m.version++
}

// forget holds no observation, under a new version.
func (m *lastObservation) forget() {
	clear(m.msgs)
	m.msgs = m.msgs[:0]
	m.task, m.state, m.tools = nil, nil, nil
	m.version++
}

// sameMessage compares two messages; strings compare by pointer first, so
// unchanged history costs next to nothing. Tool calls are the same when
// they are the same slice.
func sameMessage(a, b *Message) bool {
	if a.Role != b.Role || a.Content != b.Content || a.ToolCallID != b.ToolCallID || a.Name != b.Name ||
		len(a.ToolCalls) != len(b.ToolCalls) {
		return false
	}
	return len(a.ToolCalls) == 0 || &a.ToolCalls[0] == &b.ToolCalls[0]
}

func sameTools(a, b []ToolDefinition) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// Begin records the observation reset returned as sent, version 1, for a
// caller that keeps it.
func (r *Run) Begin(obs *Observation) uint64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.last.remember(obs)
	return r.last.version
}
