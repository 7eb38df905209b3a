// Package livestream holds the live stream kind: the `videohost_live_stream` resource (and its
// list resource for terraform query), the `videohost_live_stream` and `videohost_live_streams`
// data sources, and the `videohost_live_stream_complete` action; its thumbnail (thumbnail.go),
// its plan checks (plan.go), its writes (writes.go) and its move from restapi_object
// (move_state.go).
package livestream
