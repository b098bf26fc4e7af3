package reasoninggym

import "github.com/llenvs/llenvs-go/strictcfg"

// decodeParams strictly decodes a task's config fields into dst, whose
// fields already hold reasoning-gym's defaults.
func decodeParams(task string, params map[string]any, dst any) error {
	return strictcfg.Decode(task+" config", params, dst)
}
