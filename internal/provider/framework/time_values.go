package framework

import (
	"time"

	"github.com/hashicorp/terraform-plugin-framework/types"
)

// TimeString is a date-time of the service as the state holds it: RFC 3339 in UTC, or null
// when the service gave none.
func TimeString(t *time.Time) types.String {
	if t == nil || t.IsZero() {
		return types.StringNull()
	}
	return types.StringValue(t.UTC().Format(time.RFC3339))
}
