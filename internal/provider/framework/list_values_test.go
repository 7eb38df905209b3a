package framework_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/provider/livestream"
	"github.com/videohost/terraform-provider-videohost/internal/provider/playertheme"
	"github.com/videohost/terraform-provider-videohost/internal/provider/tag"
	"github.com/videohost/terraform-provider-videohost/internal/provider/video"
	"github.com/videohost/terraform-provider-videohost/internal/provider/videosummary"
	"github.com/videohost/terraform-provider-videohost/internal/provider/webhook"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

func testLiveStream(id string) videohost.LiveStream {
	return videohost.LiveStream{
		ID: id, Name: "studio", StreamKey: "key", Public: true, PlayerID: "pl1", Broadcasting: true,
		CreatedAt: &acctest.TestTime, UpdatedAt: &acctest.TestTime,
		Assets:    &videohost.LiveStreamAssets{HLS: "h", IFrame: "i", Player: "p", Thumbnail: "t"},
		Restreams: []videohost.Restream{{Name: "yt", ServerURL: "rtmp://x/live", StreamKey: "rk"}},
	}
}

func testWebhook(id string) videohost.Webhook {
	return videohost.Webhook{ID: id, URL: "https://example.com/" + id, CreatedAt: acctest.TestTime,
		Events: []string{"video.encoding.quality.completed", "live-stream.broadcast.started"}, SignatureSecret: "s"}
}

// TestObjectsMatchReflection keeps the hand-built list elements of every list data source
// equal to the framework's reflection of their models, which the data sources of one item use.
func TestObjectsMatchReflection(t *testing.T) {
	videos := map[string]videohost.Video{
		"full":                  acctest.TestVideo("vi1"),
		"bare":                  {ID: "vi2"},
		"source without stream": {ID: "vi3", Source: &videohost.VideoSource{URI: "u", Type: "upload"}},
	}
	for name, v := range videos {
		t.Run("video "+name, func(t *testing.T) {
			m := video.VideoModelFrom(v)
			got, diags := m.Object()
			acctest.RequireSameObject(t, video.VideoObjectType, m, got, diags)
		})
	}
	liveStreams := map[string]videohost.LiveStream{
		"full": testLiveStream("li1"),
		"bare": {ID: "li2"},
	}
	for name, ls := range liveStreams {
		t.Run("live stream "+name, func(t *testing.T) {
			m := livestream.LiveStreamModelFrom(ls)
			got, diags := m.Object()
			acctest.RequireSameObject(t, livestream.LiveStreamObjectType, m, got, diags)
		})
	}
	webhooks := map[string]videohost.Webhook{
		"full": testWebhook("wh1"),
		"bare": {ID: "wh2"},
	}
	for name, w := range webhooks {
		t.Run("webhook "+name, func(t *testing.T) {
			m, diags := webhook.WebhookModelFrom(t.Context(), w, types.StringNull())
			if diags.HasError() {
				t.Fatal(diags)
			}
			got, diags := m.Object()
			acctest.RequireSameObject(t, webhook.WebhookObjectType, m, got, diags)
		})
	}
	named := acctest.SampleTheme("pt2")
	named.Name, named.Assets = "brand", &videohost.PlayerThemeAssets{Logo: "l", Link: "k"}
	themes := map[string]videohost.PlayerTheme{"defaults": acctest.SampleTheme("pt1"), "named with logo": named}
	for name, p := range themes {
		t.Run("player theme "+name, func(t *testing.T) {
			m := playertheme.PlayerThemeModelFrom(p)
			got, diags := m.Object()
			acctest.RequireSameObject(t, playertheme.PlayerThemeObjectType, m, got, diags)
		})
	}
	created := time.Date(2024, 7, 14, 23, 36, 7, 0, time.UTC)
	for name, s := range map[string]videohost.Summary{"full": {ID: "summary_1", VideoID: "vi1", Origin: "auto", SourceStatus: "completed", CreatedAt: &created, UpdatedAt: &created}, "bare": {ID: "summary_2"}} {
		t.Run("summary "+name, func(t *testing.T) {
			m := videosummary.SummaryDataModelFrom(s)
			got, diags := m.Object()
			acctest.RequireSameObject(t, videosummary.SummaryObjectType, m, got, diags)
		})
	}
	t.Run("tag", func(t *testing.T) {
		m := tag.TagDataModelFrom(videohost.Tag{Value: "maths", VideoCount: 33})
		got, diags := m.Object()
		acctest.RequireSameObject(t, tag.TagObjectType, m, got, diags)
	})
}

func TestListValue(t *testing.T) {
	list, diags := framework.ListValue(video.VideoObjectType, []videohost.Video{acctest.TestVideo("vi1"), {ID: "vi2"}},
		func(v videohost.Video) (types.Object, diag.Diagnostics) { return video.VideoModelFrom(v).Object() })
	if diags.HasError() || len(list.Elements()) != 2 {
		t.Fatalf("listValue: %d elements, %v", len(list.Elements()), diags)
	}
	empty, diags := framework.ListValue(webhook.WebhookObjectType, nil, func(videohost.Webhook) (types.Object, diag.Diagnostics) {
		t.Fatal("object called for an empty list")
		return types.Object{}, nil
	})
	if diags.HasError() || empty.IsNull() || len(empty.Elements()) != 0 {
		t.Fatalf("an empty list must be empty, not null: %s, %v", empty, diags)
	}
	// An object that fails stops the walk with its diagnostic and a null list.
	var calls int
	failed, diags := framework.ListValue(webhook.WebhookObjectType, []videohost.Webhook{{}, {}}, func(videohost.Webhook) (types.Object, diag.Diagnostics) {
		calls++
		var d diag.Diagnostics
		d.AddError("Broken", "on purpose")
		return types.ObjectNull(webhook.WebhookObjectType.AttrTypes), d
	})
	if !diags.HasError() || !failed.IsNull() || calls != 1 {
		t.Fatalf("a failing object: list %s, %d calls, %v", failed, calls, diags)
	}
}

// BenchmarkListValues compares the two ways of building the list of a list data source, each
// through to State.Set as Read does: the framework's reflection of a model that holds a slice of
// item models ("reflection"), and the elements built by each model's object() into a
// types.List ("hand-built"). It prints figures only; the choice they support is written in
// list_values.go.
func BenchmarkListValues(b *testing.B) {
	listCases([]int{10, 100}, []int{100, 10000}, func(name string, ds datasource.DataSource, reflected func() any, handBuilt func() (any, diag.Diagnostics)) {
		benchmarkList(b, name, ds, reflected, handBuilt)
	})
}

// TestListBenchmarkCasesAgree runs the check BenchmarkListValues starts with on every case, so
// a list data source that gains a filter fails here, in go test, rather than only in the
// benchmarks.
func TestListBenchmarkCasesAgree(t *testing.T) {
	var cases int
	listCases([]int{2}, []int{2}, func(name string, ds datasource.DataSource, reflected func() any, handBuilt func() (any, diag.Diagnostics)) {
		cases++
		t.Run(name, func(t *testing.T) {
			viaReflection, viaHand, diags := listStates(ds, reflected, handBuilt)
			if diags.HasError() || !viaReflection.Raw.Equal(viaHand.Raw) {
				t.Fatalf("the two ways give different states (%v):\n%s\n%s", diags, viaReflection.Raw, viaHand.Raw)
			}
		})
	})
	if cases != 3 {
		t.Fatalf("%d cases, want 3 (webhooks, live streams, videos)", cases)
	}
}

// listCases calls do with each list data source's two ways of building its state, for each
// number of items.
func listCases(sizes, videoSizes []int, do func(name string, ds datasource.DataSource, reflected func() any, handBuilt func() (any, diag.Diagnostics))) {
	ctx := context.Background()
	for _, n := range sizes {
		webhooks := make([]videohost.Webhook, n)
		for i := range webhooks {
			webhooks[i] = testWebhook(fmt.Sprintf("wh%d", i))
		}
		do(fmt.Sprintf("webhooks/%d", n), webhook.NewWebhooksDataSource(),
			func() any {
				m := struct {
					Event    types.String           `tfsdk:"event"`
					Webhooks []webhook.WebhookModel `tfsdk:"webhooks"`
				}{Event: types.StringNull()}
				for _, w := range webhooks {
					wm, _ := webhook.WebhookModelFrom(ctx, w, types.StringNull())
					m.Webhooks = append(m.Webhooks, wm)
				}
				return &m
			},
			func() (any, diag.Diagnostics) {
				l, diags := framework.ListValue(webhook.WebhookObjectType, webhooks, func(w videohost.Webhook) (types.Object, diag.Diagnostics) {
					m, _ := webhook.WebhookModelFrom(ctx, w, types.StringNull())
					return m.Object()
				})
				return &webhook.WebhooksModel{Event: types.StringNull(), Webhooks: l}, diags
			})
	}
	for _, n := range sizes {
		streams := make([]videohost.LiveStream, n)
		for i := range streams {
			streams[i] = testLiveStream(fmt.Sprintf("li%d", i))
		}
		do(fmt.Sprintf("live_streams/%d", n), livestream.NewLiveStreamsDataSource(),
			func() any {
				m := struct {
					Name        types.String                 `tfsdk:"name"`
					StreamKey   types.String                 `tfsdk:"stream_key"`
					SortBy      types.String                 `tfsdk:"sort_by"`
					SortOrder   types.String                 `tfsdk:"sort_order"`
					LiveStreams []livestream.LiveStreamModel `tfsdk:"live_streams"`
				}{Name: types.StringNull(), StreamKey: types.StringNull(), SortBy: types.StringNull(), SortOrder: types.StringNull()}
				for _, ls := range streams {
					m.LiveStreams = append(m.LiveStreams, livestream.LiveStreamModelFrom(ls))
				}
				return &m
			},
			func() (any, diag.Diagnostics) {
				l, diags := framework.ListValue(livestream.LiveStreamObjectType, streams, func(ls videohost.LiveStream) (types.Object, diag.Diagnostics) {
					return livestream.LiveStreamModelFrom(ls).Object()
				})
				return &livestream.LiveStreamsModel{Name: types.StringNull(), StreamKey: types.StringNull(), SortBy: types.StringNull(), SortOrder: types.StringNull(), LiveStreams: l}, diags
			})
	}
	for _, n := range videoSizes {
		videos := make([]videohost.Video, n)
		for i := range videos {
			videos[i] = acctest.TestVideo(fmt.Sprintf("vi%d", i))
		}
		filters := video.VideosModel{
			Title: types.StringNull(), Tags: types.ListNull(types.StringType), Metadata: types.MapNull(types.StringType),
			Description: types.StringNull(), LiveStreamID: types.StringNull(), SortBy: types.StringNull(), SortOrder: types.StringNull(),
		}
		do(fmt.Sprintf("videos/%d", n), video.NewVideosDataSource(),
			func() any {
				m := struct {
					Title        types.String       `tfsdk:"title"`
					Tags         types.List         `tfsdk:"tags"`
					Metadata     types.Map          `tfsdk:"metadata"`
					Description  types.String       `tfsdk:"description"`
					LiveStreamID types.String       `tfsdk:"live_stream_id"`
					SortBy       types.String       `tfsdk:"sort_by"`
					SortOrder    types.String       `tfsdk:"sort_order"`
					Videos       []video.VideoModel `tfsdk:"videos"`
				}{filters.Title, filters.Tags, filters.Metadata, filters.Description, filters.LiveStreamID, filters.SortBy, filters.SortOrder, nil}
				for _, v := range videos {
					m.Videos = append(m.Videos, video.VideoModelFrom(v))
				}
				return &m
			},
			func() (any, diag.Diagnostics) {
				m := filters
				var diags diag.Diagnostics
				m.Videos, diags = framework.ListValue(video.VideoObjectType, videos, func(v videohost.Video) (types.Object, diag.Diagnostics) {
					return video.VideoModelFrom(v).Object()
				})
				return &m, diags
			})
	}
}

// benchmarkList runs the reflection and the hand-built way of one list data source, each
// converting the client's items and setting the state of the data source's schema.
func benchmarkList(b *testing.B, name string, ds datasource.DataSource, reflected func() any, handBuilt func() (any, diag.Diagnostics)) {
	ctx := context.Background()
	emptyState := emptyStateOf(ds)
	// Both ways must give the same state, or the figures compare different work.
	viaReflection, viaHand, diags := listStates(ds, reflected, handBuilt)
	if diags.HasError() || !viaReflection.Raw.Equal(viaHand.Raw) {
		b.Fatalf("%s: the two ways give different states (%v):\n%s\n%s", name, diags, viaReflection.Raw, viaHand.Raw)
	}
	b.Run(name+"/reflection", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			state := emptyState()
			if diags := state.Set(ctx, reflected()); diags.HasError() {
				b.Fatal(diags)
			}
		}
	})
	b.Run(name+"/hand-built", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			state := emptyState()
			m, diags := handBuilt()
			diags.Append(state.Set(ctx, m)...)
			if diags.HasError() {
				b.Fatal(diags)
			}
		}
	})
}

// emptyStateOf returns a maker of empty states of the data source's schema.
func emptyStateOf(ds datasource.DataSource) func() tfsdk.State {
	ctx := context.Background()
	var resp datasource.SchemaResponse
	ds.Schema(ctx, datasource.SchemaRequest{}, &resp)
	return func() tfsdk.State {
		return tfsdk.State{Schema: resp.Schema, Raw: tftypes.NewValue(resp.Schema.Type().TerraformType(ctx), nil)}
	}
}

// listStates sets one state each way.
func listStates(ds datasource.DataSource, reflected func() any, handBuilt func() (any, diag.Diagnostics)) (tfsdk.State, tfsdk.State, diag.Diagnostics) {
	ctx := context.Background()
	emptyState := emptyStateOf(ds)
	viaReflection, viaHand := emptyState(), emptyState()
	diags := viaReflection.Set(ctx, reflected())
	m, d := handBuilt()
	diags.Append(d...)
	diags.Append(viaHand.Set(ctx, m)...)
	return viaReflection, viaHand, diags
}
