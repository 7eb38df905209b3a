package video

// The status of a video (GET /videos/{id}/status) as the videohost_video data source shows it:
// whether the video can be played, the state of each encoded quality, and the source's size.
// Only the data source of one video reads it: the videos list would cost a read per video.

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// videoStatusModel is the status part of the videohost_video data source's state.
type videoStatusModel struct {
	Playable     types.Bool          `tfsdk:"playable"`
	IngestStatus types.String        `tfsdk:"ingest_status"`
	SourceSize   types.Int64         `tfsdk:"source_size"`
	Qualities    []videoQualityModel `tfsdk:"qualities"`
}

type videoQualityModel struct {
	Type    types.String `tfsdk:"type"`
	Quality types.String `tfsdk:"quality"`
	Status  types.String `tfsdk:"status"`
}

// videoWithStatusModel is the state of the videohost_video data source.
type videoWithStatusModel struct {
	VideoModel
	videoStatusModel
}

// videoWithStatus is a video and its status, as the data source reads them.
type videoWithStatus struct {
	video  videohost.Video
	status videohost.VideoStatus
}

// videoWithStatusDataAttributes are the computed attributes of the videohost_video data source:
// the video's, and its status.
func videoWithStatusDataAttributes() map[string]schema.Attribute {
	attrs := videoDataAttributes()
	attrs["playable"] = framework.ComputedBool("Whether the video can be played: true once its first quality is encoded.")
	attrs["ingest_status"] = framework.ComputedString("Where the source stands: `uploading` (part of it has arrived), " +
		"`uploaded`, `ingesting` or `ingested`; null before any byte of it arrived.")
	attrs["source_size"] = schema.Int64Attribute{
		MarkdownDescription: "Size of the source in bytes (the service's `filesize`); null until the upload gave it " +
			"(and for a video made from a URL, until the service reports it).",
		Computed: true,
	}
	attrs["qualities"] = schema.ListNestedAttribute{
		MarkdownDescription: "The encoded outputs of the video and their states, in the service's order; empty until " +
			"the source is complete.",
		Computed: true,
		NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
			"type":    framework.ComputedString("Kind of output: `hls` or `mp4`."),
			"quality": framework.ComputedString("Resolution, such as `720p`."),
			"status":  framework.ComputedString("State of its encoding: `waiting`, `encoding`, `encoded` or `failed`."),
		}},
	}
	return attrs
}

// videoWithStatusModelFrom maps a video and its status to the data source's state.
func videoWithStatusModelFrom(_ context.Context, v videoWithStatus) (any, diag.Diagnostics) {
	st := v.status
	m := videoWithStatusModel{
		VideoModel: VideoModelFrom(v.video),
		videoStatusModel: videoStatusModel{
			Playable:     types.BoolValue(st.Encoding.Playable),
			IngestStatus: types.StringNull(),
			SourceSize:   types.Int64Null(),
			Qualities:    make([]videoQualityModel, 0, len(st.Encoding.Qualities)),
		},
	}
	if in := st.Ingest; in != nil {
		if in.Status != "" {
			m.IngestStatus = types.StringValue(in.Status)
		}
		if in.Filesize != nil {
			m.SourceSize = types.Int64Value(*in.Filesize)
		}
	}
	for _, q := range st.Encoding.Qualities {
		m.Qualities = append(m.Qualities, videoQualityModel{
			Type: types.StringValue(q.Type), Quality: types.StringValue(q.Quality), Status: types.StringValue(q.Status),
		})
	}
	return m, nil
}
