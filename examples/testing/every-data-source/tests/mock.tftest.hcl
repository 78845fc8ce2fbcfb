# Offline: mock_provider stands in for the provider, so no API, token or
# network is needed. mock_data sets what every read of a data source
# returns; override_data, in a run, what one data source returns there.
# An attribute left out gets a made-up value: a random string, 0, false, an
# empty list, an object of such values. Give every attribute a module
# filters on.

mock_provider "joinit" {
  mock_data "joinit_memberships" {
    defaults = {
      memberships = [
        {
          email           = "ana@example.org"
          membership_name = "Board"
          profile         = { first_name = "Ana" }
          custom_answers  = [{ question = "Committee", answer = "Finance" }]
        },
        {
          email           = "ben@example.org"
          membership_name = "Individual"
          profile         = { first_name = "Ben" }
          custom_answers  = []
        },
        # membership_name left out: a random string, never "Board".
        { email = "cy@example.org", profile = { first_name = "Cy" } },
      ]
      emails = ["ana@example.org", "ben@example.org"]
      records = [
        { email = "ana@example.org", membership_name = "Board" },
        { email = "ben@example.org", membership_name = "Individual" },
      ]
    }
  }

  mock_data "joinit_membership" {
    defaults = {
      found = true
      membership = {
        email          = "ana@example.org"
        profile        = { first_name = "Ana" }
        custom_answers = [{ answer = "Finance" }, { answer = "Events" }]
      }
    }
  }

  mock_data "joinit_membership_types" {
    defaults = {
      membership_types = [
        { membership_name = "Board", price = { value = 0, currency = "usd" } },
        { membership_name = "Individual", price = { value = 5000, currency = "usd" } },
      ]
    }
  }

  mock_data "joinit_groups" {
    defaults = {
      groups = [{ name = "Finance committee" }, { name = "Events committee" }]
    }
  }

  mock_data "joinit_payments" {
    defaults = {
      payments = [
        { total = 5000, lines = [{ description = "Individual, 2026", amount = 5000 }] },
        { total = 2500, lines = [{ description = "Donation", amount = 2500 }] },
      ]
    }
  }

  mock_data "joinit_org_metrics" {
    defaults = {
      results = [
        { metric_period_key = 202609, active_memberships = 118 },
        { metric_period_key = 202610, active_memberships = 121 },
      ]
    }
  }
}

run "every_list_is_filled" {
  command = plan

  assert {
    condition     = jsonencode(output.board_first_names) == jsonencode(["Ana"])
    error_message = "board_first_names is ${jsonencode(output.board_first_names)}"
  }
  assert {
    condition     = jsonencode(output.first_answers) == jsonencode(["Finance"])
    error_message = "first_answers is ${jsonencode(output.first_answers)}"
  }
  assert {
    condition     = jsonencode(output.active_emails) == jsonencode(["ana@example.org", "ben@example.org"])
    error_message = "active_emails is ${jsonencode(output.active_emails)}"
  }
  assert {
    condition     = jsonencode(output.names) == jsonencode(["Board", "Individual"])
    error_message = "names is ${jsonencode(output.names)}"
  }
  assert {
    condition     = output.ana.first_name == "Ana" && jsonencode(output.ana.answers) == jsonencode(["Finance", "Events"])
    error_message = "ana is ${jsonencode(output.ana)}"
  }
  assert {
    condition     = jsonencode(output.prices) == jsonencode({ Board = 0, Individual = 5000 })
    error_message = "prices is ${jsonencode(output.prices)}"
  }
  assert {
    condition     = jsonencode(output.groups) == jsonencode(["Finance committee", "Events committee"])
    error_message = "groups is ${jsonencode(output.groups)}"
  }
  assert {
    condition     = output.revenue == 7500 && jsonencode(output.line_descriptions) == jsonencode(["Individual, 2026", "Donation"])
    error_message = "revenue is ${output.revenue}, lines ${jsonencode(output.line_descriptions)}"
  }
  assert {
    condition     = output.latest_active_memberships == "00202610 121"
    error_message = "latest_active_memberships is ${jsonencode(output.latest_active_memberships)}"
  }
}

run "one_data_source_overridden" {
  command = plan

  override_data {
    target = data.joinit_memberships.active
    values = {
      memberships = [
        { email = "dee@example.org", membership_name = "Board", profile = { first_name = "Dee" }, custom_answers = [] },
      ]
    }
  }

  assert {
    condition     = jsonencode(output.board_first_names) == jsonencode(["Dee"]) && jsonencode(output.first_answers) == jsonencode([])
    error_message = "board_first_names is ${jsonencode(output.board_first_names)}, first_answers ${jsonencode(output.first_answers)}"
  }
  assert {
    condition     = jsonencode(output.groups) == jsonencode(["Finance committee", "Events committee"])
    error_message = "the other data sources keep the provider's mock_data"
  }
}
