// Package watermark holds the watermark kind: the `videohost_watermark` resource (and its list
// resource) and the `videohost_watermarks` data source.
package watermark
