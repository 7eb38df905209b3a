package emulator_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestIndependentOfTheClient checks that the emulator and its command depend on no package of
// the module except the event-name list and, for the command, the neutral serving loop, so that
// they stay an independent check on the client. The walk is transitive: an allowed package that
// came to import the client would list it here too.
func TestIndependentOfTheClient(t *testing.T) {
	const module = "github.com/videohost/terraform-provider-videohost/"
	for _, pkg := range []string{module + "internal/emulator", module + "cmd/videohost-emulator"} {
		out, err := exec.CommandContext(t.Context(), "go", "list", "-deps", pkg).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", pkg, err)
		}
		for _, dep := range strings.Fields(string(out)) {
			if !strings.HasPrefix(dep, module) {
				continue
			}
			switch strings.TrimPrefix(dep, module) {
			case "internal/emulator", "cmd/videohost-emulator", "internal/events", "internal/serving":
			default:
				t.Errorf("%s depends on %s", pkg, dep)
			}
		}
	}
}
