// A run's metrics from JSON lines, Lightning's metrics.csv and Hugging Face
// Trainer's trainer_state.json, and the picks run-list's --metric makes.

#include "run/metrics.hpp"

#include <catch2/catch.hpp>

#include <stint/error.hpp>

using stint::run::MetricPick;
using stint::run::MetricPoint;
using stint::run::RunMetrics;

TEST_CASE("metrics: JSON lines, their step or their place", "[run][metrics]") {
  RunMetrics m;
  stint::run::add_json_lines(m,
                             "{\"step\": 100, \"loss\": 0.5, \"val_acc\": 0.7}\n"
                             "\n"
                             "{\"step\": 200, \"loss\": 0.25, \"note\": \"warm\", \"ok\": true}\r\n"
                             "{\"global_step\": 300, \"loss\": 0.3}\n"
                             "{\"loss\": 0.1}\n"
                             "not json\n"
                             "[1, 2]\n"
                             "{\"step\": 400, \"loss\": 0.0");  // cut off by a kill
  CHECK(m.series.at("loss") ==
        std::vector<MetricPoint>{{100, 0.5}, {200, 0.25}, {300, 0.3}, {3, 0.1}});
  CHECK(m.series.at("val_acc") == std::vector<MetricPoint>{{100, 0.7}});
  // Strings and booleans are not metrics; the step is not one either.
  CHECK(m.series.count("note") == 0);
  CHECK(m.series.count("ok") == 0);
  CHECK(m.series.count("step") == 0);
  CHECK(m.skipped == 3);
}

TEST_CASE("metrics: Lightning's metrics.csv with empty cells", "[run][metrics]") {
  RunMetrics m;
  stint::run::add_csv(m,
                      "epoch,step,train_loss,val_loss,val_acc\n"
                      "0,49,0.9,,\n"
                      "0,49,,0.8,0.6\n"
                      "1,99,0.5,,\n"
                      "1,99,,0.4,0.75\n"
                      "1,99,,oops,0.7\n"
                      "2,149,0.3\n");  // too few cells
  CHECK(m.series.at("train_loss") == std::vector<MetricPoint>{{49, 0.9}, {99, 0.5}});
  CHECK(m.series.at("val_acc") == std::vector<MetricPoint>{{49, 0.6}, {99, 0.75}, {99, 0.7}});
  CHECK(m.series.at("val_loss") == std::vector<MetricPoint>{{49, 0.8}, {99, 0.4}});
  CHECK(m.series.at("epoch").size() == 5);
  CHECK(m.skipped == 1);
  RunMetrics quoted;
  stint::run::add_csv(quoted, "\"a,b\",c\n\"1\",2\n");
  CHECK(quoted.series.at("a,b") == std::vector<MetricPoint>{{0, 1}});
  RunMetrics none;
  stint::run::add_csv(none, "");
  CHECK(none.empty());
}

TEST_CASE("metrics: Hugging Face Trainer's log_history", "[run][metrics]") {
  RunMetrics m;
  stint::run::add_trainer_state(m, R"({"global_step": 20, "log_history": [
      {"epoch": 0.5, "learning_rate": 5e-05, "loss": 1.2, "step": 10},
      {"epoch": 1.0, "eval_loss": 0.9, "eval_accuracy": 0.61, "step": 20},
      "junk"]})");
  CHECK(m.series.at("loss") == std::vector<MetricPoint>{{10, 1.2}});
  CHECK(m.series.at("eval_accuracy") == std::vector<MetricPoint>{{20, 0.61}});
  CHECK(m.series.at("learning_rate").front().value == Approx(5e-05));
  CHECK(m.skipped == 1);
  RunMetrics bad;
  stint::run::add_trainer_state(bad, "{\"log_history\": 3}");
  stint::run::add_trainer_state(bad, "{");
  CHECK(bad.empty());
  CHECK(bad.skipped == 2);
}

TEST_CASE("metrics: picks and their spelling", "[run][metrics]") {
  RunMetrics m;
  stint::run::add_json_lines(m,
                             "{\"step\":1,\"acc\":0.5}\n{\"step\":2,\"acc\":0.9}\n"
                             "{\"step\":3,\"acc\":0.9}\n{\"step\":4,\"acc\":0.7}\n");
  CHECK(stint::run::pick_metric(m, "acc", MetricPick::max) == MetricPoint{2, 0.9});
  CHECK(stint::run::pick_metric(m, "acc", MetricPick::min) == MetricPoint{1, 0.5});
  CHECK(stint::run::pick_metric(m, "acc", MetricPick::last) == MetricPoint{4, 0.7});
  CHECK_FALSE(stint::run::pick_metric(m, "loss", MetricPick::last));
  CHECK(stint::run::parse_metric_spec("val_acc") ==
        std::pair<std::string, MetricPick>{"val_acc", MetricPick::max});
  CHECK(stint::run::parse_metric_spec("loss:min").second == MetricPick::min);
  CHECK(stint::run::parse_metric_spec("a:b:last") ==
        std::pair<std::string, MetricPick>{"a:b", MetricPick::last});
  CHECK_THROWS_WITH(stint::run::parse_metric_spec("loss:best"),
                    "--metric loss:best: \"best\" is not max, min or last");
  CHECK_THROWS_WITH(stint::run::parse_metric_spec(":min"),
                    Catch::Matchers::Contains("no metric named"));
  CHECK(stint::run::format_metric(0.8123456) == "0.812346");
  CHECK(stint::run::format_metric(1500) == "1500");
  CHECK(stint::run::format_metric(1e-7) == "1e-07");
}
