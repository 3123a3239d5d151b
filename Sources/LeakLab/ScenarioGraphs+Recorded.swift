// Recorded by LeakLabTests (ScenarioGraphRecordTests) from each scenario's leaky
// form; `LEAKLAB_RECORD_SNAPSHOTS=1 swift test` rewrites it.

extension ScenarioGraphs {
  /// Each leaky form's graph as JSON, by scenario id.
  static let recordedJSON: [String: String] = [
    "alert-action-capture": #"""
    {
      "edges" : [
        {
          "culprit" : false,
          "from" : "AlertController_1",
          "label" : "actions[1]",
          "strength" : "strong",
          "to" : "AlertAction_1"
        },
        {
          "culprit" : false,
          "from" : "AlertAction_1",
          "label" : "handler",
          "strength" : "strong",
          "to" : "closure_1"
        },
        {
          "culprit" : true,
          "from" : "closure_1",
          "label" : "captures[1]",
          "strength" : "strong",
          "to" : "AlertController_1"
        },
        {
          "culprit" : false,
          "from" : "closure_1",
          "label" : "captures[0]",
          "strength" : "strong",
          "to" : "DraftsScreen_1"
        }
      ],
      "nodes" : [
        {
          "details" : [
          ],
          "id" : "AlertController_1",
          "kind" : "object",
          "leaked" : true,
          "root" : false,
          "title" : "AlertController#1"
        },
        {
          "details" : [
          ],
          "id" : "AlertAction_1",
          "kind" : "object",
          "leaked" : false,
          "root" : false,
          "title" : "AlertAction#1"
        },
        {
          "details" : [
            "in DraftsScreen.confirmDelete()",
            "captures AlertController#1, DraftsScreen#1"
          ],
          "id" : "closure_1",
          "kind" : "closure",
          "leaked" : false,
          "root" : false,
          "title" : "closure"
        },
        {
          "details" : [
          ],
          "id" : "DraftsScreen_1",
          "kind" : "object",
          "leaked" : true,
          "root" : false,
          "title" : "DraftsScreen#1"
        }
      ]
    }
    """#,
    "child-coordinator": #"""
    {
      "edges" : [
        {
          "culprit" : false,
          "from" : "OrdersCoordinator_1",
          "label" : "childCoordinators[0]",
          "strength" : "strong",
          "to" : "PaymentCoordinator_1"
        },
        {
          "culprit" : true,
          "from" : "PaymentCoordinator_1",
          "label" : "parentCoordinator",
          "strength" : "strong",
          "to" : "OrdersCoordinator_1"
        }
      ],
      "nodes" : [
        {
          "details" : [
          ],
          "id" : "OrdersCoordinator_1",
          "kind" : "object",
          "leaked" : true,
          "root" : false,
          "title" : "OrdersCoordinator#1"
        },
        {
          "details" : [
          ],
          "id" : "PaymentCoordinator_1",
          "kind" : "object",
          "leaked" : true,
          "root" : false,
          "title" : "PaymentCoordinator#1"
        }
      ]
    }
    """#,
    "closure-capture": #"""
    {
      "edges" : [
        {
          "culprit" : false,
          "from" : "LoadFeedUseCase_1",
          "label" : "service",
          "strength" : "strong",
          "to" : "FeedService_1"
        },
        {
          "closure" : "closure in LoadFeedUseCase.execute()",
          "culprit" : true,
          "from" : "FeedService_1",
          "label" : "completion",
          "strength" : "strong",
          "to" : "LoadFeedUseCase_1"
        }
      ],
      "nodes" : [
        {
          "details" : [
          ],
          "id" : "LoadFeedUseCase_1",
          "kind" : "object",
          "leaked" : true,
          "root" : false,
          "title" : "LoadFeedUseCase#1"
        },
        {
          "details" : [
          ],
          "id" : "FeedService_1",
          "kind" : "object",
          "leaked" : true,
          "root" : false,
          "title" : "FeedService#1"
        }
      ]
    }
    """#,
    "combine-sink": #"""
    {
      "edges" : [
        {
          "culprit" : false,
          "from" : "SearchScreen_1",
          "label" : "cancellables[0]",
          "strength" : "strong",
          "to" : "AnyCancellable_1"
        },
        {
          "culprit" : false,
          "from" : "AnyCancellable_1",
          "label" : "_cancel",
          "strength" : "strong",
          "to" : "closure_1"
        },
        {
          "culprit" : false,
          "from" : "closure_1",
          "label" : "captures",
          "strength" : "strong",
          "to" : "Sink_Array_String_Never_1"
        },
        {
          "closure" : "closure in SearchScreen.bind()",
          "culprit" : true,
          "from" : "Sink_Array_String_Never_1",
          "label" : "receiveValue",
          "strength" : "strong",
          "to" : "SearchScreen_1"
        }
      ],
      "nodes" : [
        {
          "details" : [
          ],
          "id" : "SearchScreen_1",
          "kind" : "object",
          "leaked" : true,
          "root" : false,
          "title" : "SearchScreen#1"
        },
        {
          "details" : [
          ],
          "id" : "AnyCancellable_1",
          "kind" : "object",
          "leaked" : false,
          "root" : false,
          "title" : "AnyCancellable#1"
        },
        {
          "details" : [
            "in AnyCancellable.init<A where A: Cancellable>(_:)",
            "captures Sink<Array<String>, Never>#1"
          ],
          "id" : "closure_1",
          "kind" : "closure",
          "leaked" : false,
          "root" : false,
          "title" : "closure"
        },
        {
          "details" : [
          ],
          "id" : "Sink_Array_String_Never_1",
          "kind" : "object",
          "leaked" : false,
          "root" : false,
          "title" : "Sink<Array<String>, Never>#1"
        }
      ]
    }
    """#,
    "delayed-dispatch": #"""
    {
      "edges" : [
        {
          "culprit" : false,
          "from" : "SyncScreen_1",
          "label" : "mainQueue.scheduler",
          "strength" : "strong",
          "to" : "main_queue"
        },
        {
          "culprit" : false,
          "from" : "main_queue",
          "label" : "word 4",
          "strength" : "conservative",
          "to" : "Array_storage"
        },
        {
          "culprit" : false,
          "from" : "Array_storage",
          "label" : "[0]",
          "strength" : "strong",
          "to" : "ScheduledWork_1"
        },
        {
          "closure" : "closure in SyncScreen.syncLater()",
          "culprit" : true,
          "from" : "ScheduledWork_1",
          "label" : "work",
          "strength" : "strong",
          "to" : "SyncScreen_1"
        }
      ],
      "nodes" : [
        {
          "details" : [
          ],
          "id" : "SyncScreen_1",
          "kind" : "object",
          "leaked" : true,
          "root" : false,
          "title" : "SyncScreen#1"
        },
        {
          "details" : [
          ],
          "id" : "main_queue",
          "kind" : "object",
          "leaked" : false,
          "root" : false,
          "title" : "main queue"
        },
        {
          "details" : [
          ],
          "id" : "Array_storage",
          "kind" : "collection",
          "leaked" : false,
          "root" : false,
          "title" : "Array storage"
        },
        {
          "details" : [
          ],
          "id" : "ScheduledWork_1",
          "kind" : "object",
          "leaked" : false,
          "root" : false,
          "title" : "ScheduledWork#1"
        }
      ]
    }
    """#,
    "foundation-timer": #"""
    {
      "edges" : [
        {
          "culprit" : false,
          "from" : "ScoreboardScreen_1",
          "label" : "timer",
          "strength" : "strong",
          "to" : "Timer_1"
        },
        {
          "closure" : "closure in ScoreboardScreen.startRefreshing()",
          "culprit" : true,
          "from" : "Timer_1",
          "label" : "_fire",
          "strength" : "strong",
          "to" : "ScoreboardScreen_1"
        }
      ],
      "nodes" : [
        {
          "details" : [
          ],
          "id" : "ScoreboardScreen_1",
          "kind" : "object",
          "leaked" : true,
          "root" : false,
          "title" : "ScoreboardScreen#1"
        },
        {
          "details" : [
          ],
          "id" : "Timer_1",
          "kind" : "object",
          "leaked" : false,
          "root" : false,
          "title" : "Timer#1"
        }
      ]
    }
    """#,
    "handler-context": #"""
    {
      "edges" : [
        {
          "culprit" : false,
          "from" : "ChannelHandlerContext_1",
          "label" : "handler",
          "strength" : "strong",
          "to" : "RequestLogHandler_1"
        },
        {
          "culprit" : true,
          "from" : "RequestLogHandler_1",
          "label" : "context",
          "strength" : "strong",
          "to" : "ChannelHandlerContext_1"
        }
      ],
      "nodes" : [
        {
          "details" : [
          ],
          "id" : "ChannelHandlerContext_1",
          "kind" : "object",
          "leaked" : true,
          "root" : false,
          "title" : "ChannelHandlerContext#1"
        },
        {
          "details" : [
          ],
          "id" : "RequestLogHandler_1",
          "kind" : "object",
          "leaked" : true,
          "root" : false,
          "title" : "RequestLogHandler#1"
        }
      ]
    }
    """#,
    "lazy-closure-property": #"""
    {
      "edges" : [
        {
          "closure" : "closure in CartScreen.describe.getter",
          "culprit" : true,
          "from" : "CartScreen_1",
          "label" : "describe (lazy var)",
          "strength" : "strong",
          "to" : "CartScreen_1"
        }
      ],
      "nodes" : [
        {
          "details" : [
          ],
          "id" : "CartScreen_1",
          "kind" : "object",
          "leaked" : true,
          "root" : false,
          "title" : "CartScreen#1"
        }
      ]
    }
    """#,
    "nested-closure": #"""
    {
      "edges" : [
        {
          "culprit" : false,
          "from" : "PhotoScreen_1",
          "label" : "retryButton",
          "strength" : "strong",
          "to" : "Button_1"
        },
        {
          "closure" : "closure in PhotoScreen.loadPhoto()",
          "culprit" : true,
          "from" : "Button_1",
          "label" : "action",
          "strength" : "strong",
          "to" : "PhotoScreen_1"
        }
      ],
      "nodes" : [
        {
          "details" : [
          ],
          "id" : "PhotoScreen_1",
          "kind" : "object",
          "leaked" : true,
          "root" : false,
          "title" : "PhotoScreen#1"
        },
        {
          "details" : [
          ],
          "id" : "Button_1",
          "kind" : "object",
          "leaked" : false,
          "root" : false,
          "title" : "Button#1"
        }
      ]
    }
    """#,
    "notification-observer": #"""
    {
      "edges" : [
        {
          "culprit" : false,
          "from" : "InboxScreen_1",
          "label" : "center",
          "strength" : "strong",
          "to" : "NotificationCenter"
        },
        {
          "culprit" : false,
          "from" : "NotificationCenter",
          "label" : "word 3",
          "strength" : "conservative",
          "to" : "Dictionary_storage"
        },
        {
          "culprit" : false,
          "from" : "Dictionary_storage",
          "label" : "values[0].values[0].storage.values[0]",
          "strength" : "strong",
          "to" : "closure_1"
        },
        {
          "closure" : "closure in InboxScreen.observeInbox()",
          "culprit" : true,
          "from" : "closure_1",
          "label" : "captures",
          "strength" : "strong",
          "to" : "InboxScreen_1"
        }
      ],
      "nodes" : [
        {
          "details" : [
          ],
          "id" : "InboxScreen_1",
          "kind" : "object",
          "leaked" : true,
          "root" : false,
          "title" : "InboxScreen#1"
        },
        {
          "details" : [
          ],
          "id" : "NotificationCenter",
          "kind" : "object",
          "leaked" : false,
          "root" : false,
          "title" : "NotificationCenter"
        },
        {
          "details" : [
          ],
          "id" : "Dictionary_storage",
          "kind" : "collection",
          "leaked" : false,
          "root" : false,
          "title" : "Dictionary storage"
        },
        {
          "details" : [
            "in NotificationCenter._addObserver<A>(_:object:using:)",
            "captures closure in InboxScreen.observeInbox()"
          ],
          "id" : "closure_1",
          "kind" : "closure",
          "leaked" : false,
          "root" : false,
          "title" : "closure"
        }
      ]
    }
    """#,
    "repeating-timer": #"""
    {
      "edges" : [
        {
          "culprit" : false,
          "from" : "StopwatchScreen_1",
          "label" : "timer",
          "strength" : "strong",
          "to" : "RepeatingWork_1"
        },
        {
          "closure" : "closure in StopwatchScreen.start()",
          "culprit" : true,
          "from" : "RepeatingWork_1",
          "label" : "work",
          "strength" : "strong",
          "to" : "StopwatchScreen_1"
        }
      ],
      "nodes" : [
        {
          "details" : [
          ],
          "id" : "StopwatchScreen_1",
          "kind" : "object",
          "leaked" : true,
          "root" : false,
          "title" : "StopwatchScreen#1"
        },
        {
          "details" : [
          ],
          "id" : "RepeatingWork_1",
          "kind" : "object",
          "leaked" : false,
          "root" : false,
          "title" : "RepeatingWork#1"
        }
      ]
    }
    """#,
    "strong-delegate": #"""
    {
      "edges" : [
        {
          "culprit" : false,
          "from" : "CheckoutScreen_1",
          "label" : "rootView",
          "strength" : "strong",
          "to" : "View_1"
        },
        {
          "culprit" : false,
          "from" : "View_1",
          "label" : "subviews[1]",
          "strength" : "strong",
          "to" : "StrongDelegatePaymentForm_1"
        },
        {
          "culprit" : true,
          "from" : "StrongDelegatePaymentForm_1",
          "label" : "delegate",
          "strength" : "strong",
          "to" : "CheckoutScreen_1"
        }
      ],
      "nodes" : [
        {
          "details" : [
          ],
          "id" : "CheckoutScreen_1",
          "kind" : "object",
          "leaked" : true,
          "root" : false,
          "title" : "CheckoutScreen#1"
        },
        {
          "details" : [
          ],
          "id" : "View_1",
          "kind" : "object",
          "leaked" : false,
          "root" : false,
          "title" : "View#1"
        },
        {
          "details" : [
          ],
          "id" : "StrongDelegatePaymentForm_1",
          "kind" : "object",
          "leaked" : false,
          "root" : false,
          "title" : "StrongDelegatePaymentForm#1"
        }
      ]
    }
    """#,
    "task-loop": #"""
    {
      "edges" : [
        {
          "culprit" : false,
          "from" : "TickerScreen_1",
          "label" : "task",
          "strength" : "strong",
          "to" : "Task"
        },
        {
          "culprit" : false,
          "from" : "Task",
          "label" : "word 32",
          "strength" : "conservative",
          "to" : "closure_1"
        },
        {
          "culprit" : false,
          "from" : "closure_1",
          "label" : "captures",
          "strength" : "strong",
          "to" : "closure_2"
        },
        {
          "culprit" : true,
          "from" : "closure_2",
          "label" : "captures[2]",
          "strength" : "strong",
          "to" : "TickerScreen_1"
        }
      ],
      "nodes" : [
        {
          "details" : [
          ],
          "id" : "TickerScreen_1",
          "kind" : "object",
          "leaked" : true,
          "root" : false,
          "title" : "TickerScreen#1"
        },
        {
          "details" : [
          ],
          "id" : "Task",
          "kind" : "other",
          "leaked" : false,
          "root" : false,
          "title" : "Task"
        },
        {
          "details" : [
            "captures closure"
          ],
          "id" : "closure_1",
          "kind" : "closure",
          "leaked" : false,
          "root" : false,
          "title" : "closure"
        },
        {
          "details" : [
            "captures TickerScreen#1"
          ],
          "id" : "closure_2",
          "kind" : "closure",
          "leaked" : false,
          "root" : false,
          "title" : "closure"
        }
      ]
    }
    """#,
    "viper-module": #"""
    {
      "edges" : [
        {
          "culprit" : false,
          "from" : "ProfilePresenter_1",
          "label" : "interactor",
          "strength" : "strong",
          "to" : "StrongOutputProfileInteractor_1"
        },
        {
          "culprit" : true,
          "from" : "StrongOutputProfileInteractor_1",
          "label" : "output",
          "strength" : "strong",
          "to" : "ProfilePresenter_1"
        },
        {
          "culprit" : false,
          "from" : "ProfilePresenter_1",
          "label" : "router",
          "strength" : "strong",
          "to" : "ProfileRouter_1"
        }
      ],
      "nodes" : [
        {
          "details" : [
          ],
          "id" : "ProfilePresenter_1",
          "kind" : "object",
          "leaked" : true,
          "root" : false,
          "title" : "ProfilePresenter#1"
        },
        {
          "details" : [
          ],
          "id" : "StrongOutputProfileInteractor_1",
          "kind" : "object",
          "leaked" : true,
          "root" : false,
          "title" : "StrongOutputProfileInteractor#1"
        },
        {
          "details" : [
          ],
          "id" : "ProfileRouter_1",
          "kind" : "object",
          "leaked" : true,
          "root" : false,
          "title" : "ProfileRouter#1"
        }
      ]
    }
    """#,
  ]
}
