# Plays of one video per hour over the last day.
data "videohost_analytics_timeseries" "launch" {
  metric   = "play"
  interval = "hour"
  filter_by = {
    media_id = ["vi4blUQJFrYWbaG44NChkH27"]
  }
}

output "plays_per_hour" {
  value = { for p in data.videohost_analytics_timeseries.launch.points : p.emitted_at => p.metric_value }
}
