terraform {
  required_providers {
    videohost = {
      source  = "videohost/videohost"
      version = "~> 0.1.0"
    }
  }
}

variable "delivery_body" {
  type    = string
  default = "{\"type\":\"video.summary.generated\",\"videoId\":\"vi4blUQJFrYWbaG44NChkH27\",\"summaryId\":\"sm1\"}"
}

variable "delivery_signature" {
  type    = string
  default = "0000000000000000000000000000000000000000000000000000000000000000"
}

# True when the signature matches the body under the secret. The comparison takes constant time,
# and an empty secret never verifies.
output "delivery_is_authentic" {
  value = provider::videohost::verify_webhook_signature("sig_secret_for_tests_only", var.delivery_body, var.delivery_signature)
}
