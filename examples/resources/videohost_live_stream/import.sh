# A live stream is imported by its liveStreamId, as the service returns it. Restream keys are
# read into stream_key; a configuration that gives them as stream_key_wo sends them again once.
terraform import videohost_live_stream.studio li4pqNqGUkhKfWcBGpZVLRY5
