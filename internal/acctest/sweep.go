package acctest

// The harness's door to the sweepers (internal/sweep; each kind's folder defines its own in
// sweep.go, and provider.RegisterSweepers registers them): make sweep (scripts/sweep) and the
// inventory of CI's remote run use them through here, registered.

import (
	"github.com/videohost/terraform-provider-videohost/internal/provider"
	"github.com/videohost/terraform-provider-videohost/internal/sweep"
)

func init() { provider.RegisterSweepers() }

// Object is one object of the workspace (sweep.Object).
type Object = sweep.Object

// DiscardRetention is how long a workspace with Video Restore keeps a discarded video.
const DiscardRetention = sweep.DiscardRetention

// The sweepers' operations, on the registered sweepers (internal/sweep says what each does).
var (
	Inventory     = sweep.Inventory
	Swept         = sweep.Swept
	SweepOrder    = sweep.SweepOrder
	SweeperNames  = sweep.SweeperNames
	Sweep         = sweep.Sweep
	ShownID       = sweep.ShownID
	InventoryDiff = sweep.InventoryDiff
)
