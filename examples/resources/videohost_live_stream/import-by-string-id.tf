import {
  to = videohost_live_stream.studio
  id = "li4pqNqGUkhKfWcBGpZVLRY5"
}
