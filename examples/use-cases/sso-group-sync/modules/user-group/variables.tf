variable "name" {
  description = "Name of the user group in the target system (SSO directory, Slack, ...)."
  type        = string

  validation {
    condition     = can(regex("^[a-z0-9][a-z0-9-]{0,79}$", var.name))
    error_message = "The group name must be 1-80 lowercase letters, digits or hyphens, starting with a letter or digit."
  }
}

variable "description" {
  description = "Human-readable description of the group."
  type        = string
  default     = ""
}

variable "member_emails" {
  description = "E-mail addresses of the users who belong to the group."
  type        = set(string)

  validation {
    condition     = alltrue([for e in var.member_emails : can(regex("^[^@[:space:]]+@[^@[:space:]]+$", e))])
    error_message = "Every member must be an e-mail address."
  }
}
