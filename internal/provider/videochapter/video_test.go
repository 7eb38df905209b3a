package videochapter_test

import (
	"testing"

	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// trackedVideo creates the video whose captions or chapters a test manages, outside Terraform,
// and returns its id; it is deleted when the test ends. Its title carries the run's prefix and
// the test's name (acctest.RunName: the env of acctest.NewTrackEnv does not know the test's
// name, so env.Name would leave it out), so that a run's ledger and make sweep find it.
func trackedVideo(t *testing.T, env *acctest.AccEnv) string {
	t.Helper()
	return acctest.CreateVideoOutside(t, env, videohost.VideoCreate{Title: acctest.RunName(t, "captioned")})
}
