package videocaption

// A caption in the state.

import (
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/videohost/terraform-provider-videohost/internal/provider/track"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// videoCaptionModel is a caption in the state.
type videoCaptionModel struct {
	track.VideoTrackModel
	Default      types.Bool   `tfsdk:"default"`
	LanguageName types.String `tfsdk:"language_name"`
}

// captionModelFrom is the state of caption c, uploaded from the file of plan (whose hash is sum).
func captionModelFrom(plan track.VideoTrackModel, sum types.String, c videohost.Caption) videoCaptionModel {
	m := videoCaptionModel{VideoTrackModel: plan, Default: types.BoolValue(c.Default), LanguageName: types.StringValue(c.LanguageName)}
	m.ID = types.StringValue(track.TrackID(plan.VideoID.ValueString(), plan.Language.ValueString()))
	m.SourceSHA256 = sum
	m.Src = types.StringValue(c.Src)
	return m
}
