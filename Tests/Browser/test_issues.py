"""The issue track on the dashboard (iMobile §IV inside sade serve, people in the loop): a
nurse registers a critical issue and sees Robert's agent choose Tony and ask him; the
question is Tony's (or an admin's for him), so the nurse has no buttons; the admin presses
*Take it* for Tony, sees the next issue e-mailed when nobody can take it, reports Tony's
result, and brings Julia back to the office so that she is asked and takes a prototyping
issue. One flow, in order: each round depends on who is busy after the one before."""

from sade_browser import DashboardTestCase, call, choose, click, css, fill, login, no_sideways_scroll, shot, text, token, unique, wait


def register(driver, title, priority, service):
    """Fills the register form as Robert and submits it; returns the new issue's row selector."""
    fill(driver, {'#issue-form [name="title"]': title, '#issue-form [name="description"]': "raised by the browser test"})
    choose(driver, '#issue-form [name="priority"]', priority)
    choose(driver, '#issue-form [name="service"]', service)
    choose(driver, '#issue-form [name="reporter"]', "robert")
    click(driver, "#register-issue")
    number = wait(driver, lambda d: d.execute_script(
        "const r = [...document.querySelectorAll('#issue-list tr[data-issue]')].find(r => r.querySelector('strong')?.textContent === arguments[0]);"
        "return r ? r.dataset.issue : null;", title), f"issue {title} is listed")
    return f'#issue-list tr[data-issue="{number}"]'


def asking(driver, row, employee):
    """Waits until the row's round asks `employee` (an employee id) whether they take it."""
    wait(driver, lambda d: css(d, f'{row} .question[data-employee="{employee}"]'), f"the round of {row} asks {employee}")


def take(driver, row):
    """Presses Take it on the row's open question."""
    click(driver, f"{row} .question button.take")


def finished(driver, row):
    """Waits until the row's round is over (the page polls while it runs); its outcome text."""
    return wait(driver, lambda d: css(d, f"{row} .outcome") and not css(d, f"{row} .running") and text(d, f"{row} .outcome"),
                f"the round of {row} ends")


class IssueTrackTests(DashboardTestCase):
    def test_issues_taken_emailed_solved_and_presence(self):
        driver = self.driver
        login(driver, "nurse1")
        click(driver, '#nav a[href="#/issues"]')
        wait(driver, lambda d: css(d, "#issue-form") and css(d, '#employees tr[data-employee="julia"].away'),
             "the issues page shows the form and who is out of the office")
        self.assertEqual(css(driver, '#employees input[type="checkbox"]'), [], "only admins change who is in the office")

        outage = unique("Office network down")
        row = register(driver, outage, "critical", "infrastructure")
        asking(driver, row, "tony")
        self.assertIn("asking Tony Almeida: take it?", text(driver, f"{row} .question"))
        self.assertEqual(css(driver, f"{row} .question button"), [], "the question is Tony's, not the nurse's")
        driver.execute_script("document.querySelector(arguments[0]).scrollIntoView()", row)
        shot(driver, "issues")

        click(driver, "#logout")
        login(driver, "admin")
        driver.get(driver.current_url.split("#")[0] + "#/issues")
        wait(driver, lambda d: css(d, row), "the admin sees the nurse's issue")
        asking(driver, row, "tony")
        take(driver, row)
        outcome = finished(driver, row)
        self.assertIn("taken by Tony Almeida", outcome)
        self.assertIn("Maria Costa refused: is busy with critical issue #1", outcome)
        self.assertIn("Pedro Alves refused: is not connected to the company network", outcome)
        self.assertEqual(text(driver, f"{row} .status").strip(), "in-progress")

        # Tony is now busy with an urgent issue, Maria too, Pedro away: nobody takes the next.
        second = register(driver, unique("Backup server unreachable"), "critical", "infrastructure")
        outcome = finished(driver, second)
        self.assertIn("nobody took it: e-mailed", outcome)
        self.assertIn("pedro@acme.example", outcome)
        self.assertIn("Tony Almeida refused: is busy with critical issue", outcome)

        # Tony's result, reported by the admin on his behalf.
        fill(driver, {f'{row} [name="note"]': "switch replaced"})
        click(driver, f"{row} .resolution button:not(.secondary)")
        wait(driver, lambda d: text(d, f"{row} .status").startswith("solved"), "the issue shows as solved")
        self.assertIn("switch replaced", text(driver, f"{row} .status"))
        admin = token("admin")
        number = row.split('"')[1]
        status, issue = call("GET", f"/api/v1/issues/{number}", token=admin)
        self.assertEqual((status, issue["status"], issue["resolutionNote"]), (200, "solved", "switch replaced"))

        # Julia back in the office: she takes a prototyping issue.
        click(driver, '#employees input[data-employee="julia"]')
        wait(driver, lambda d: css(d, '#employees tr[data-employee="julia"]:not(.away)'), "Julia is in the office")
        status, company = call("GET", "/api/v1/company", token=admin)
        self.assertTrue(next(e for e in company["employees"] if e["id"] == "julia")["connected"])
        prototype = register(driver, unique("Prototype for the client demo"), "high", "prototyping")
        asking(driver, prototype, "julia")
        take(driver, prototype)
        self.assertIn("taken by Julia Rocha", finished(driver, prototype))
        driver.execute_script("document.querySelector(arguments[0]).scrollIntoView()", row)
        shot(driver, "issues-admin")
        click(driver, '#employees input[data-employee="julia"]')  # out of the office again
        wait(driver, lambda d: css(d, '#employees tr[data-employee="julia"].away'), "Julia is away again")

    def test_phone_width(self):
        self.use_phone()
        login(self.driver, "doctor1")
        self.driver.get(self.driver.current_url.split("#")[0] + "#/issues")
        wait(self.driver, lambda d: css(d, "#issue-form"), "the issues page opens at phone width")
        self.assertTrue(no_sideways_scroll(self.driver), "the issues page fits a phone's width")
        shot(self.driver, "issues-phone")
