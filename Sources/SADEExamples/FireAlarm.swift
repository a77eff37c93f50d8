public enum FireAlarm {}
