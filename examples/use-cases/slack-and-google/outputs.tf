# Counts, not lists: no personal data in the plan log.
output "slack_members" {
  value = length(module.slack.planned)
}

output "google_members" {
  value = length(module.google.planned)
}

output "to_remove" {
  value = { slack = length(module.slack.to_remove), google = length(module.google.to_remove) }
}
