# A member who changes their e-mail address, against three Join It
# sandboxes of one seed, with GitHub mocked on its real schema: the sandbox
# of JOINIT_BASE_URL as it was, one where the member's address changed only
# in case (after_case_url), one where it changed to another address
# (after_new_url). The provider's make test (TestAccModules_tests)
# starts them, picks a member who answered "GitHub username", makes the
# changes through the sandbox's ChangeEmail and writes terraform.tfvars
# here: the two URLs, the member's addresses (old_email, case_email,
# new_email) and their username as the module keeps it (username).
#
# The module keys the team by username and never reads the address: the
# member keeps their place in the team whatever address they give.

# A run that names its providers gets those alone: each names the mock too.
mock_provider "github" {}

provider "joinit" {}

provider "joinit" {
  alias    = "after_case"
  base_url = var.after_case_url
}

provider "joinit" {
  alias    = "after_new"
  base_url = var.after_new_url
}

override_data {
  target = data.github_team.this
  values = { id = "4242", members = ["left-long-ago"] }
}

variables {
  team_slug    = "members"
  max_removals = 1
}

run "before" {
  command = plan

  assert {
    condition     = contains(output.planned, var.username)
    error_message = "the member's username ${var.username} is not among the ${length(output.planned)} read before the change"
  }
}

run "an_address_changed_only_in_case_changes_nothing" {
  command = plan

  providers = {
    joinit = joinit.after_case
    github = github
  }

  assert {
    condition     = output.planned == run.before.planned && output.to_add == run.before.to_add && output.to_remove == run.before.to_remove
    error_message = "after ${var.old_email} became ${var.case_email}, the team's plan changed: members ${length(output.planned)} (were ${length(run.before.planned)}), to_remove ${jsonencode(output.to_remove)}"
  }
}

run "a_new_address_changes_nothing" {
  command = plan

  providers = {
    joinit = joinit.after_new
    github = github
  }

  assert {
    condition     = output.planned == run.before.planned && output.to_add == run.before.to_add && output.to_remove == run.before.to_remove && contains(output.planned, var.username)
    error_message = "after ${var.old_email} became ${var.new_email}, the team's plan changed: members ${length(output.planned)} (were ${length(run.before.planned)}), to_remove ${jsonencode(output.to_remove)}"
  }
}
