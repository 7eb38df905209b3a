terraform {
  required_providers {
    videohost = {
      source  = "videohost/videohost"
      version = "~> 0.1.0"
    }
  }
}

# The signature the service puts into X-Service-Signature: the lowercase hex HMAC-SHA256 of the
# body, keyed with the webhook's signature secret. Useful to build test deliveries for a receiver.
output "test_delivery_signature" {
  value = provider::videohost::webhook_signature(
    "sig_secret_for_tests_only",
    jsonencode({ type = "live-stream.broadcast.started", emittedAt = "2026-01-01T00:00:00+00:00", liveStreamId = "li400mYKSgQ6xs7taUeSaEKr" }),
  )
}
