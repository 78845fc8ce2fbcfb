variable "joinit_organization_id" {
  description = "The Join It organization whose members both groups hold."
  type        = string
}

variable "slack_usergroup_id" {
  description = "The Slack user group, by id (S0123ABCD)."
  type        = string
}

variable "google_group_email" {
  description = "The Google group, by address."
  type        = string
}
