package provider

import (
	"sync"

	"github.com/videohost/terraform-provider-videohost/internal/provider/livestream"
	"github.com/videohost/terraform-provider-videohost/internal/provider/playertheme"
	"github.com/videohost/terraform-provider-videohost/internal/provider/uploadtoken"
	"github.com/videohost/terraform-provider-videohost/internal/provider/video"
	"github.com/videohost/terraform-provider-videohost/internal/provider/videosummary"
	"github.com/videohost/terraform-provider-videohost/internal/provider/watermark"
	"github.com/videohost/terraform-provider-videohost/internal/provider/webhook"
	"github.com/videohost/terraform-provider-videohost/internal/sweep"
)

var registerSweepers sync.Once

// RegisterSweepers registers, once, the sweeper that each kind's folder defines (its sweep.go)
// for the objects the acceptance tests make on the service: make sweep and the remote run's
// inventory use them through the harness. Captions and chapters go with their video and have
// none. The order is the inventory's.
func RegisterSweepers() {
	registerSweepers.Do(func() {
		sweep.Register(video.Sweeper(), livestream.Sweeper(), webhook.Sweeper(), playertheme.Sweeper(),
			watermark.Sweeper(), uploadtoken.Sweeper(), videosummary.Sweeper())
	})
}
