package provider

import (
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// TestVideoObjectMatchesReflection keeps the hand-built list elements equal to the framework's
// reflection of videoModel, which the single video data source still uses: a field added to
// the model or the schema and forgotten in object() fails here.
func TestVideoObjectMatchesReflection(t *testing.T) {
	at := time.Date(2026, 11, 22, 1, 2, 3, 0, time.UTC)
	videos := map[string]videohost.Video{
		"full": {
			ID: "vi1", Title: "t", Description: "d", Language: "en", PlayerID: "pl1",
			CreatedAt: &at, PublishedAt: &at, UpdatedAt: &at,
			Discarded: true, Public: true, Panoramic: true, MP4Support: true,
			Tags:     []string{"a", "b"},
			Metadata: []videohost.Metadata{{Key: "k", Value: "v"}, {Key: "k2", Value: ""}},
			Source: &videohost.VideoSource{URI: "/videos/vi1/source", Type: "live",
				LiveStream: &videohost.VideoSourceLiveStream{LiveStreamID: "li1"}},
			Assets: &videohost.VideoAssets{HLS: "h", IFrame: "i", Player: "p", Thumbnail: "th", MP4: "m"},
		},
		"bare":                  {ID: "vi2"},
		"source without stream": {ID: "vi3", Source: &videohost.VideoSource{URI: "u", Type: "upload"}},
	}
	for name, v := range videos {
		t.Run(name, func(t *testing.T) {
			m := videoModelFrom(v)
			got, diags := m.object()
			if diags.HasError() {
				t.Fatalf("object: %v", diags)
			}
			want, diags := types.ObjectValueFrom(t.Context(), videoAttrTypes, m)
			if diags.HasError() {
				t.Fatalf("reflection: %v", diags)
			}
			if !got.Equal(want) {
				t.Fatalf("object() differs from reflection:\n got  %s\n want %s", got, want)
			}
		})
	}
	list, diags := videoListValue([]videohost.Video{videos["full"], videos["bare"]})
	if diags.HasError() || len(list.Elements()) != 2 {
		t.Fatalf("videoListValue: %d elements, %v", len(list.Elements()), diags)
	}
}
