package reasoninggym

import "github.com/llenvs/llenvs-go/core"

// decodeParams strictly decodes a task's config fields into dst, whose
// fields already hold reasoning-gym's defaults.
func decodeParams(task string, params map[string]any, dst any) error {
	return core.DecodeStrict(task+" config", params, dst)
}
